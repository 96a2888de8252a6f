import DataStoreCore

/// What saving checks about one entity, derived from the schema once instead of once per model and rule:
/// `Schema.entity(named:)` scans the entities and copies one, and `uniqueConstraints` builds new arrays.
final class EntityRules: Sendable {
    let entity: Schema.Entity
    /// The attribute names, to reject a snapshot naming another: found by their bytes before by hash, so
    /// that checking a save's names hashes none of them when they are the schema's own strings.
    let attributePositions: AttributePositions
    /// Every uniqueness constraint (see `Schema/Entity/uniqueConstraints`).
    let uniqueConstraints: [[String]]
    /// The attributes a delete's tombstone keeps.
    let preservedAttributeNames: [String]
    /// The attributes whose previous value history records.
    let previousValueAttributeNames: Set<String>
    /// Whether every attribute and relationship is among `previousValueAttributeNames`: then every name an
    /// update changes is, without a lookup (one hash per name: a tenth of what previous values add to a save).
    let marksEveryName: Bool
    /// The attributes a store's value index covers (see `Schema/Entity/indexedAttributeNames`).
    let indexedAttributeNames: Set<String>
    /// The attributes a unique constraint or an index covers: an update of none of them moves no unique value
    /// and no index entry.
    let keyedAttributeNames: Set<String>
    /// The entity's relationships by name.
    let relationships: [String: Schema.Relationship]

    init(_ entity: Schema.Entity) {
        self.entity = entity
        attributePositions = AttributePositions(entity.attributes.map(\.name))
        uniqueConstraints = entity.uniqueConstraints
        preservedAttributeNames = entity.preservedAttributeNames
        previousValueAttributeNames = Set(entity.previousValueAttributeNames)
        indexedAttributeNames = entity.indexedAttributeNames
        keyedAttributeNames = Set(uniqueConstraints.joined()).union(indexedAttributeNames)
        relationships = Dictionary(entity.relationships.map { ($0.name, $0) }) { first, _ in first }
        marksEveryName = Set(entity.attributes.map(\.name)).union(relationships.keys).isSubset(
            of: previousValueAttributeNames)
    }

    /// The rules of every entity of `schema`, by name.
    static func table(_ schema: Schema?) -> [String: EntityRules] {
        var table: [String: EntityRules] = [:]
        for entity in schema?.entities ?? [] where table[entity.name] == nil {
            table[entity.name] = EntityRules(entity)
        }
        return table
    }

    /// The unique keys of `snapshot`, a model of this entity.
    func uniqueKeys(of snapshot: DataStoreSnapshot) -> [UniqueKey] {
        UniqueKey.keys(of: snapshot, entity: entity.name, constraints: uniqueConstraints)
    }

    /// The change that deletes `row`, a model of this entity: with its tombstone and its previous values.
    func deletion(of row: DataStoreSnapshot) -> PlannedChange {
        PlannedChange(
            kind: .delete, identifier: row.persistentIdentifier, tombstone: tombstone(of: row),
            previousValues: previousValues(of: row, among: nil))
    }

    /// The values of `row` that a delete's tombstone keeps.
    func tombstone(of row: DataStoreSnapshot) -> [String: SnapshotValue] {
        var values = [String: SnapshotValue](room: preservedAttributeNames.count)
        for name in preservedAttributeNames { values[name] = row[attribute: name] }
        return values
    }

    /// The values in `row` (the row before the change) of the attributes marked `.preservePreviousValue`,
    /// among `changed` (an update's) or all of them (a delete); `nil` when none.
    func previousValues(of row: DataStoreSnapshot, among changed: [String]?) -> [String: SnapshotValue]? {
        guard !previousValueAttributeNames.isEmpty else { return nil }
        // Straight into the dictionary, sized once: every update of a marked entity comes through here.
        var values: [String: SnapshotValue] = [:]
        let candidates = changed ?? Array(previousValueAttributeNames)
        let checksNames = changed != nil && !marksEveryName
        for name in candidates where !checksNames || previousValueAttributeNames.contains(name) {
            if values.isEmpty { values.reserveRoom(candidates.count) }
            values[name] = row[attribute: name]
        }
        return values.isEmpty ? nil : values
    }
}
