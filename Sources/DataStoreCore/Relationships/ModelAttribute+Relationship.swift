extension ModelAttribute where Model: AnyObject {
    /// Declares a relationship stored at `keyPath` under `name`: a to-one relationship for a
    /// `@Relationship var trip: Trip?`, a to-many one for a `@Relationship var bucketList: [BucketListItem] = []`.
    ///
    /// - Parameters:
    ///   - name: The relationship's name in the schema and in history.
    ///   - keyPath: The `@Relationship` property.
    ///   - deleteRule: What deleting this model does to the related models (`.nullify` by default, as in
    ///     SwiftData).
    ///   - inverse: The destination's relationship that points back, if any. Declaring it on one side is
    ///     enough; declaring it on both sides requires them to name each other.
    ///   - options: `.preserveValueOnDeletion` keeps the related identifier (or list of them) in the delete's
    ///     tombstone; `.preservePreviousValue` keeps the one an update replaced in its history change.
    ///   - originalName: The relationship's name in an earlier schema version.
    @inlinable
    public static func relationship<Value: RelationshipValue>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Model, Value>,
        deleteRule: Schema.Relationship.DeleteRule = .nullify,
        inverse: PartialKeyPath<Value.Destination>? = nil,
        options: Schema.Attribute.Option = [], originalName: String? = nil
    ) -> ModelAttribute {
        // Inlinable, so that these are specialised for the model's relationship type where it is declared:
        // a fetch writes a fault into every model it makes, a context going away unloads every model it tracked,
        // and a save reads the relationships of every model it compares; generic, each would look the
        // wrapper's type up in the runtime every time.
        relationship(
            name, keyPath, deleteRule: deleteRule, inverse: inverse, options: options,
            originalName: originalName,
            storage: RelationshipStorageWriters(
                writeFault: { address, value, resolver in
                    address.assumingMemoryBound(to: Relationship<Value>.self).pointee = Relationship(
                        fault: RelationshipFault(value: value, resolver: resolver))
                },
                unload: { address, resolver in
                    let relationship = address.assumingMemoryBound(to: Relationship<Value>.self)
                    guard relationship.pointee.isLoaded else { return }
                    relationship.pointee = Relationship(
                        fault: RelationshipFault(
                            value: relationship.pointee.snapshotValue, resolver: resolver))
                },
                refreshFault: { address, value, resolver in
                    let relationship = address.assumingMemoryBound(to: Relationship<Value>.self)
                    if case .loaded(let loaded) = relationship.pointee.storedState,
                        value.names(exactly: loaded.relatedModels)
                    {
                        return
                    }
                    relationship.pointee = Relationship(
                        fault: RelationshipFault(value: value, resolver: resolver))
                },
                snapshotValue: { address in
                    address.assumingMemoryBound(to: Relationship<Value>.self).pointee.snapshotValue
                },
                editList: { address, edit in
                    let relationship = address.assumingMemoryBound(to: Relationship<Value>.self)
                    guard edit.fits(Value.Destination.self),
                        case .loaded(let value) = relationship.pointee.storedState
                    else { return false }
                    // Out of the storage while it changes, so that the list is not shared and not copied.
                    relationship.pointee.storedState = .fault(RelationshipFault(value: .null, resolver: nil))
                    let models = edit.applied(to: (consume value).relatedModels)
                    relationship.pointee.storedState = .loaded(Value(relatedModels: models))
                    return true
                }))
    }

    /// The relationship with the writers of its storage at an address.
    @usableFromInline
    static func relationship<Value: RelationshipValue>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Model, Value>,
        deleteRule: Schema.Relationship.DeleteRule, inverse: PartialKeyPath<Value.Destination>?,
        options: Schema.Attribute.Option, originalName: String?, storage: RelationshipStorageWriters
    ) -> ModelAttribute {
        let access = RelationshipAccess(
            keyPath: keyPath, deleteRule: deleteRule, inverse: inverse, storageWriters: storage)
        return ModelAttribute(
            name: name, keyPath: keyPath, options: options, valueTypeName: String(describing: Value.self),
            valueKind: Value.isToMany ? "[identifier]" : "identifier?", originalName: originalName,
            relationship: access,
            read: access.snapshotValue,
            write: { _, _ in false })
    }
}

extension SnapshotValue {
    /// Whether this relationship value names exactly `models`, in order (without making a list of either's
    /// identifiers: a fetch asks it of every relationship of every tracked model it refreshes).
    @inlinable
    func names<Model: PersistentModel>(exactly models: [Model]) -> Bool {
        switch self {
        case .null:
            return models.isEmpty
        case .identifier(let id):
            return models.count == 1 && models[0].persistentModelID == id
        case .array(let values):
            guard values.count == models.count else { return false }
            for (value, model) in zip(values, models) {
                guard case .identifier(let id) = value, id == model.persistentModelID else { return false }
            }
            return true
        default:
            return false
        }
    }

    /// The identifiers a relationship value holds: none for `null`, one for an identifier, the elements of
    /// an array of identifiers; `nil` for any other value.
    package var relatedIdentifiers: [PersistentIdentifier]? {
        switch self {
        case .null: return []
        case .identifier(let id): return [id]
        case .array(let values):
            var identifiers: [PersistentIdentifier] = []
            identifiers.reserveCapacity(values.count)
            for value in values {
                guard case .identifier(let id) = value else { return nil }
                identifiers.append(id)
            }
            return identifiers
        default: return nil
        }
    }
}
