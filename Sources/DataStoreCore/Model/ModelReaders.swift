/// How a save reads the attributes of a model, derived once per model type.
///
/// A save reads every attribute of every model it sends. Through ``ModelAttribute/value(of:)`` each read copies
/// the attribute's declaration and projects a key path (which looks up its generic types at run time), and the
/// dictionary of values hashes every attribute's name. This table reads stored properties at their byte
/// offsets, and fills a copy of a dictionary that holds every name already, by position: no name is hashed.
final class ModelReaders<Model: PersistentModel>: @unchecked Sendable {
    // `@unchecked`: immutable after creation; the readers capture nothing.

    /// Whether `Model` is a class: its storage is then the instance, else the value itself.
    private let isClass: Bool
    /// Every attribute's name, mapped to `null`: each model's values start as a copy of it.
    private let template: [String: SnapshotValue]
    /// By attribute position, the attribute's place in `template` (and in each copy, which keeps the layout).
    private let slots: [Dictionary<String, SnapshotValue>.Index]
    /// By attribute position, the reader at an offset, or `nil` where the attribute reads itself.
    private let readers: [InPlaceReader?]

    private init() {
        let attributes = Model.schemaAttributes
        let storages = ChangeReportingDiscovery.attributeStorages(Model.self)
        isClass = Model.self is AnyObject.Type
        template = Dictionary(attributes.map { ($0.name, .null) }, uniquingKeysWith: { first, _ in first })
        slots = attributes.map { [template] in template.index(forKey: $0.name)! }
        readers = attributes.enumerated().map { position, attribute in
            attribute.inPlaceReader(storage: storages[position])
        }
    }

    /// By attribute position, whether the attribute is read at an offset (for tests).
    var readsInPlace: [Bool] { readers.map { $0 != nil } }

    /// The values of every attribute of `model`, by name (what ``PersistentModel/snapshotValues`` returns).
    func values(of model: Model) -> [String: SnapshotValue] {
        var values = template
        if isClass {
            // `model` keeps the instance alive while it is read.
            read(UnsafeRawPointer(StoredPropertyOffset.address(of: model)), model, into: &values)
        } else {
            withUnsafePointer(to: model) { read(UnsafeRawPointer($0), model, into: &values) }
        }
        return values
    }

    private func read(_ storage: UnsafeRawPointer, _ model: Model, into values: inout [String: SnapshotValue])
    {
        let attributes = Model.schemaAttributes
        for position in readers.indices {
            if let reader = readers[position] {
                values.values[slots[position]] = reader.read(storage + reader.offset)
            } else {
                values.values[slots[position]] = attributes[position].value(of: model)
            }
        }
    }

    /// The table of `Model`, made on first use.
    static func of(_: Model.Type) -> ModelReaders {
        TypeTables.table(ModelReaders.self) { ModelReaders() }
    }
}
