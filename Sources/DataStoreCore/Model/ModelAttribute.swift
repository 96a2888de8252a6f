import Foundation

/// One persisted attribute of a model: its name, key path and options, and how its value converts.
///
/// Declare them with `attribute(_:_:options:originalName:)` (for a `Codable` value stored opaquely, the same with
/// `options: .codable`) in ``PersistentModel/schemaAttributes``.
public struct ModelAttribute<Model: PersistentModel>: @unchecked Sendable {
    // `@unchecked`: the key path and the two closures capture only the key path, which is immutable.

    /// The attribute's name in the schema and in history.
    public let name: String
    /// The key path of the property that holds the value.
    public let keyPath: PartialKeyPath<Model>
    /// The attribute's options.
    public let options: Schema.Attribute.Option
    /// The name of the property's Swift type, for error messages.
    public let valueTypeName: String
    /// The kind of value the property persists (``SnapshotValueConvertible/snapshotValueKind``).
    public let valueKind: String
    /// The attribute's name in an earlier schema version, as SwiftData's `@Attribute(originalName:)`.
    public let originalName: String?
    /// The relationship's destination, rule and inverse, for a relationship; `nil` for an attribute.
    package let relationship: RelationshipAccess<Model>?
    private let read: (Model) -> SnapshotValue
    private let write: (inout Model, SnapshotValue) -> Bool
    /// Given the key path of the `@Attribute` wrapper that stores the value (`nil` for a plain property), a
    /// writer that sets the stored value directly (no change is noted): how a fetch fills in a new model. `nil`
    /// when there is none (the attribute's own writer sets it then).
    private var storageWriter: ((AnyKeyPath?) -> FreshWriter<Model>?)?
    /// Given the same key path, a reader of the stored value at its byte offset in the model's storage (a class
    /// instance or a struct value): how a save reads a model. `nil` when there is none (the attribute's own
    /// reader reads it then).
    private var storageReader: ((AnyKeyPath?) -> InPlaceReader?)?

    /// Declares an attribute stored at `keyPath` under `name`. Give `originalName` when the attribute was
    /// renamed: a store that still holds the old name renames it on opening (a lightweight migration).
    ///
    /// Inlinable, so that the conversions are specialised for the model's own types where it declares them: a
    /// fetch sets every attribute of every model it returns through them.
    @inlinable
    public static func attribute<Value: SnapshotValueConvertible>(
        _ name: String, _ keyPath: WritableKeyPath<Model, Value>, options: Schema.Attribute.Option = [],
        originalName: String? = nil
    ) -> ModelAttribute {
        ModelAttribute(
            name: name, keyPath: keyPath, options: options, valueTypeName: String(describing: Value.self),
            valueKind: Value.snapshotValueKind, originalName: originalName,
            read: { $0[keyPath: keyPath].snapshotValue },
            write: writer(keyPath),
            storageReader: { path in
                if let path {
                    guard let storage = path as? ReferenceWritableKeyPath<Model, Attribute<Value>>,
                        let offset = StoredPropertyOffset.of(storage)
                    else { return nil }
                    return InPlaceReader(offset: offset) {
                        $0.assumingMemoryBound(to: Attribute<Value>.self).pointee.value.snapshotValue
                    }
                }
                let offset: Int?
                if let reference = keyPath as? ReferenceWritableKeyPath<Model, Value> {
                    offset = StoredPropertyOffset.of(reference)
                } else {
                    // A struct model's stored property: the layout knows where it is (`nil` when computed).
                    offset = MemoryLayout<Model>.offset(of: keyPath)
                }
                return offset.map { offset in
                    InPlaceReader(offset: offset) {
                        $0.assumingMemoryBound(to: Value.self).pointee.snapshotValue
                    }
                }
            },
            storageWriter: { path in
                guard let path else {
                    // A plain stored property of a class model is written in place too.
                    guard let reference = keyPath as? ReferenceWritableKeyPath<Model, Value>,
                        let offset = StoredPropertyOffset.of(reference)
                    else { return nil }
                    return .inPlace(offset: offset) { storage, value in
                        guard let converted = Value(snapshotValue: consume value) else { return false }
                        storage.assumingMemoryBound(to: Value.self).pointee = converted
                        return true
                    }
                }
                guard let storage = path as? ReferenceWritableKeyPath<Model, Attribute<Value>> else {
                    return nil
                }
                guard let offset = StoredPropertyOffset.of(storage) else {
                    return .model { model, value in
                        guard let converted = Value(snapshotValue: value) else { return false }
                        // A set of the whole wrapper, not a modify of its value: the runtime's modify path
                        // looks up generic metadata on every call.
                        model[keyPath: storage] = Attribute(wrappedValue: converted)
                        return true
                    }
                }
                return .inPlace(offset: offset) { storage, value in
                    guard let converted = Value(snapshotValue: consume value) else { return false }
                    // An assignment: the default value `init()` stored there is released.
                    storage.assumingMemoryBound(to: Attribute<Value>.self).pointee = Attribute(
                        wrappedValue: converted)
                    return true
                }
            })
    }

    /// Sets the property from a persisted value. A class model's property is set through its reference key
    /// path, which writes in place; through the writable key path, each write would first look up the key
    /// path's generic types at run time.
    @inlinable
    static func writer<Value: SnapshotValueConvertible>(_ keyPath: WritableKeyPath<Model, Value>)
        -> (inout Model, SnapshotValue) -> Bool
    {
        if let reference = keyPath as? ReferenceWritableKeyPath<Model, Value> {
            return { model, value in
                guard let converted = Value(snapshotValue: value) else { return false }
                model[keyPath: reference] = converted
                return true
            }
        }
        return { model, value in
            guard let converted = Value(snapshotValue: value) else { return false }
            model[keyPath: keyPath] = converted
            return true
        }
    }

    /// Declares an attribute whose value is any `Codable` type, stored as one opaque value (SwiftData's
    /// `@Attribute(.codable)`): `.attribute("route", \.route, options: .codable)`. The `.codable` option is added
    /// when not given. Types a store can compare (strings, numbers, dates, their arrays and optionals) use the
    /// other overload, which this one never shadows.
    @_disfavoredOverload
    public static func attribute<Value: Codable>(
        _ name: String, _ keyPath: WritableKeyPath<Model, Value>, options: Schema.Attribute.Option = .codable,
        originalName: String? = nil
    ) -> ModelAttribute {
        ModelAttribute(
            name: name, keyPath: keyPath, options: options.union(.codable),
            valueTypeName: String(describing: Value.self), valueKind: "codable", originalName: originalName,
            read: { model in
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                // JSON has no NaN or infinity: inside the opaque value they are strings, so that no value is
                // stored as anything less than itself.
                encoder.nonConformingFloatEncodingStrategy = .convertToString(
                    positiveInfinity: CodableFloats.positiveInfinity,
                    negativeInfinity: CodableFloats.negativeInfinity,
                    nan: CodableFloats.nan)
                // Only a type whose own `encode(to:)` throws fails here; it is stored as null, which reads back
                // as a typed `attributeTypeMismatch`, never as a silently different value.
                return (try? encoder.encode(model[keyPath: keyPath])).map(SnapshotValue.data) ?? .null
            },
            write: { model, value in
                let decoder = JSONDecoder()
                decoder.nonConformingFloatDecodingStrategy = .convertFromString(
                    positiveInfinity: CodableFloats.positiveInfinity,
                    negativeInfinity: CodableFloats.negativeInfinity,
                    nan: CodableFloats.nan)
                guard case .data(let data) = value, let decoded = try? decoder.decode(Value.self, from: data)
                else { return false }
                model[keyPath: keyPath] = decoded
                return true
            })
    }

    /// An attribute that is not a relationship (what the inlinable declarations create).
    @usableFromInline
    init(
        name: String, keyPath: PartialKeyPath<Model>, options: Schema.Attribute.Option, valueTypeName: String,
        valueKind: String, originalName: String?, read: @escaping (Model) -> SnapshotValue,
        write: @escaping (inout Model, SnapshotValue) -> Bool,
        storageReader: ((AnyKeyPath?) -> InPlaceReader?)? = nil,
        storageWriter: ((AnyKeyPath?) -> FreshWriter<Model>?)? = nil
    ) {
        self.init(
            name: name, keyPath: keyPath, options: options, valueTypeName: valueTypeName,
            valueKind: valueKind,
            originalName: originalName, relationship: nil, read: read, write: write)
        self.storageReader = storageReader
        self.storageWriter = storageWriter
    }

    init(
        name: String, keyPath: PartialKeyPath<Model>, options: Schema.Attribute.Option, valueTypeName: String,
        valueKind: String, originalName: String?, relationship: RelationshipAccess<Model>?,
        read: @escaping (Model) -> SnapshotValue, write: @escaping (inout Model, SnapshotValue) -> Bool
    ) {
        self.relationship = relationship
        self.name = name
        self.keyPath = keyPath
        self.options = options
        self.valueTypeName = valueTypeName
        self.valueKind = valueKind
        self.originalName = originalName
        self.read = read
        self.write = write
        self.storageReader = nil
        self.storageWriter = nil
    }

    /// The attribute's value on `model`, as a store persists it.
    public func value(of model: Model) -> SnapshotValue {
        read(model)
    }

    /// Sets the attribute on `model` from a persisted value.
    ///
    /// - Throws: ``DataStoreError/attributeTypeMismatch(entity:attribute:expected:found:)`` when the value's
    ///   kind does not convert to the property's type; `model` is unchanged then.
    public func setValue(_ value: SnapshotValue, on model: inout Model) throws(DataStoreError) {
        try setValue(value, on: &model, resolver: nil)
    }

    /// Sets the attribute; a relationship becomes a fault that `resolver` loads on first read.
    package func setValue(
        _ value: SnapshotValue, on model: inout Model, resolver: (any RelatedModelResolving)?,
        isFresh: Bool = false
    ) throws(DataStoreError) {
        if let relationship {
            switch value {
            case .null, .identifier, .array: break
            default:
                throw .attributeTypeMismatch(
                    entity: Model.entityName, attribute: name, expected: valueTypeName, found: value.kindName)
            }
            relationship.setFault(model, value, resolver, isFresh)
            return
        }
        guard write(&model, value) else {
            throw .attributeTypeMismatch(
                entity: Model.entityName, attribute: name, expected: valueTypeName, found: value.kindName)
        }
    }

    /// The fastest way to set this attribute on a model that no context tracks yet: directly in its `@Attribute`
    /// storage when `storage` is that storage's key path, else as ``setValue(_:on:)`` does. `nil` for a
    /// relationship.
    func freshWriter(storage: AnyKeyPath?) -> FreshWriter<Model>? {
        guard relationship == nil else { return nil }
        if let direct = storageWriter?(storage) { return direct }
        return .model(write)
    }

    /// The fastest way to read this attribute: at its byte offset in the model's storage, found from
    /// `storage` (its `@Attribute` storage's key path) or its own key path. `nil` for a relationship, a
    /// `.codable` value or a computed property (``value(of:)`` reads it then).
    func inPlaceReader(storage: AnyKeyPath?) -> InPlaceReader? {
        guard relationship == nil else { return nil }
        return storageReader?(storage)
    }

    /// Converts a constant from a predicate or key path to its persisted form, when it is convertible.
    public func snapshotValue(ofConstant constant: Any) -> SnapshotValue? {
        SnapshotValue.ofConstant(constant)
    }
}

/// How a `.codable` attribute's value spells the numbers JSON has no literal for.
private enum CodableFloats {
    static let positiveInfinity = "+Infinity"
    static let negativeInfinity = "-Infinity"
    static let nan = "NaN"
}
