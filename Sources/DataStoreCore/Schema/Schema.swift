/// The entities a store holds and the attributes of each, with their options.
///
/// A store needs the schema for two rules: ``Attribute/Option/unique`` (an insert whose value is already
/// taken updates the existing row instead) and ``Attribute/Option/preserveValueOnDeletion`` (the value is
/// kept in the delete change's tombstone). Build one from model types with ``init(_:)``.
public struct Schema: Hashable, Codable, Sendable {
    /// The entities, in declaration order.
    public var entities: [Entity]

    /// Creates a schema from its entities.
    public init(entities: [Entity]) {
        self.entities = entities
    }

    /// The entity with the given name, if the schema has it.
    public func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }
}
