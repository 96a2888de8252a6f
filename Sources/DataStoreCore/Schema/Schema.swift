/// The entities a store holds and the attributes of each, with their options.
///
/// A store needs the schema for two rules: ``Attribute/Option/unique`` (an insert whose value is already
/// taken updates the existing row instead) and ``Attribute/Option/preserveValueOnDeletion`` (the value is
/// kept in the delete change's tombstone). Build one from model types with ``init(_:version:)``, as in SwiftData;
/// such a schema also opens a container (`ModelContainer/init(for:configurations:)-(Schema,_)`).
public struct Schema: Hashable, Codable, Sendable {
    /// The entities, in declaration order.
    public var entities: [Entity]
    /// The version identifier, when the schema is one version of a `VersionedSchema` plan.
    public var version: Version?
    /// The model types the schema was built from; empty when it was built from entities. Not encoded, and
    /// not part of equality: two schemas with the same entities are the same schema.
    package var modelTypes = ModelTypeList()

    private enum CodingKeys: String, CodingKey {
        case entities, version
    }

    /// Creates a schema from its entities.
    public init(entities: [Entity], version: Version? = nil) {
        self.entities = entities
        self.version = version
    }

    /// The schema as a store lays out its rows: entities, attribute names, kinds and options, without what
    /// does not change the stored data (defaults, original names, the version). Two schemas with the same
    /// layout need no migration between them.
    public var storageLayout: Schema {
        Schema(entities: entities.map(\.storageLayout))
    }

    /// The entity with the given name, if the schema has it.
    public func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }
}

/// Model types carried along by a ``Schema``, ignored by its equality, hashing and encoding.
package struct ModelTypeList: Hashable, @unchecked Sendable {
    // `@unchecked`: metatypes are immutable and the array is never shared mutably.
    package var types: [any PersistentModel.Type] = []

    package init(types: [any PersistentModel.Type] = []) { self.types = types }

    package static func == (lhs: ModelTypeList, rhs: ModelTypeList) -> Bool { true }
    package func hash(into hasher: inout Hasher) {}
}
