extension ModelAttribute where Model: AnyObject {
    /// Declares a to-one relationship stored at `keyPath` (a `@Relationship var trip: Trip?`) under `name`.
    ///
    /// - Parameters:
    ///   - name: The relationship's name in the schema and in history.
    ///   - keyPath: The `@Relationship` property.
    ///   - deleteRule: What deleting this model does to the related model (`.nullify` by default, as in
    ///     SwiftData).
    ///   - inverse: The destination's relationship that points back, if any. Declaring it on one side is
    ///     enough; declaring it on both sides requires them to name each other.
    ///   - options: `.preserveValueOnDeletion` keeps the related identifier in the delete's tombstone.
    ///   - originalName: The relationship's name in an earlier schema version.
    public static func relationship<Related: PersistentModel & AnyObject>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Model, Related?>,
        deleteRule: Schema.Relationship.DeleteRule = .nullify, inverse: PartialKeyPath<Related>? = nil,
        options: Schema.Attribute.Option = [], originalName: String? = nil
    ) -> ModelAttribute {
        makeRelationship(
            name, keyPath, deleteRule: deleteRule, inverse: inverse, options: options,
            originalName: originalName)
    }

    /// Declares a to-many relationship stored at `keyPath` (a `@Relationship var bucketList: [Item] = []`)
    /// under `name`. The parameters are those of the to-one form; `.preserveValueOnDeletion` keeps the list
    /// of related identifiers in the tombstone.
    public static func relationship<Related: PersistentModel & AnyObject>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Model, [Related]>,
        deleteRule: Schema.Relationship.DeleteRule = .nullify, inverse: PartialKeyPath<Related>? = nil,
        options: Schema.Attribute.Option = [], originalName: String? = nil
    ) -> ModelAttribute {
        makeRelationship(
            name, keyPath, deleteRule: deleteRule, inverse: inverse, options: options,
            originalName: originalName)
    }

    private static func makeRelationship<Value: RelationshipValue>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Model, Value>,
        deleteRule: Schema.Relationship.DeleteRule, inverse: AnyKeyPath?, options: Schema.Attribute.Option,
        originalName: String?
    ) -> ModelAttribute {
        let access = RelationshipAccess(keyPath: keyPath, deleteRule: deleteRule, inverse: inverse)
        return ModelAttribute(
            name: name, keyPath: keyPath, options: options, valueTypeName: String(describing: Value.self),
            valueKind: Value.isToMany ? "[identifier]" : "identifier?", originalName: originalName,
            relationship: access,
            read: { model in
                let identifiers = access.identifiers(model) ?? []
                return Value.isToMany
                    ? .array(identifiers.map(SnapshotValue.identifier))
                    : identifiers.first.map(SnapshotValue.identifier) ?? .null
            },
            write: { _, _ in false })
    }
}

extension SnapshotValue {
    /// The identifiers a relationship value holds: none for `null`, one for an identifier, the elements of
    /// an array of identifiers; `nil` for any other value.
    var relatedIdentifiers: [PersistentIdentifier]? {
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
