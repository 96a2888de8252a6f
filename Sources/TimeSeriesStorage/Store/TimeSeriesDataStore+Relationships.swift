@_spi(DataStoreInternals) public import DataStoreCore
import DataStoreKit
import Foundation

extension TimeSeriesDataStore {
    /// Throws for a relationship the store cannot keep: samples are never updated or deleted, so a store
    /// holds to-one references only, with no inverse (maintaining one is an update of the other side) and no
    /// `.cascade` rule (a delete). `.nullify`, `.deny` and `.noAction` on a to-one reference without an inverse
    /// never need a change, and are accepted.
    ///
    /// - Throws: ``DataStoreError/invalidRelationship(entity:relationship:identifier:reason:)`` naming the
    ///   entity and relationship.
    public static func checkRelationships(_ schema: Schema?) throws(DataStoreError) {
        try schema?.validateRelationships()
        for entity in schema?.entities ?? [] {
            for relationship in entity.relationships {
                let reason: String? =
                    if relationship.isToMany {
                        "a to-many relationship changes its owner whenever a model joins it"
                    } else if relationship.inverse != nil {
                        "keeping the inverse '\(relationship.inverse ?? "")' up to date needs updates"
                    } else if relationship.deleteRule == .cascade {
                        "the .cascade delete rule needs deletes"
                    } else {
                        nil
                    }
                if let reason {
                    throw .invalidRelationship(
                        entity: entity.name, relationship: relationship.name,
                        reason: "the insert-only time-series store cannot keep it: \(reason)")
                }
            }
        }
    }

    /// The rows of the entities `Model`'s relationships point to, for a predicate or sort that follows one;
    /// `nil` when it has none. Samples are found by key only by reading every segment, so the rows are read
    /// on the first lookup, not before: a fetch whose predicate never follows a relationship keeps its seek.
    func relatedRows<Model: PersistentModel>(for descriptor: FetchDescriptor<Model>) -> SampleRows? {
        let destinations = Set(Model.schemaEntity.relationships.map(\.destination))
        guard !destinations.isEmpty, descriptor.predicate != nil || !descriptor.sortBy.isEmpty else {
            return nil
        }
        return SampleRows { [self] in
            try read { state in
                var rows: [PersistentIdentifier: DataStoreSnapshot] = [:]
                for commit in try commits(of: segments(in: state) { _, _, _, _ in true }, in: &state) {
                    for sample in commit.samples where destinations.contains(sample.entity) {
                        let id = PersistentIdentifier(
                            storeIdentifier: identifier, entityName: sample.entity, primaryKey: sample.key)
                        rows[id] = DataStoreSnapshot(persistentIdentifier: id, values: sample.values)
                    }
                }
                return rows
            }
        }
    }

    /// Samples by identifier, as a row source, read once on the first lookup.
    final class SampleRows: SnapshotRowSource, @unchecked Sendable {
        // `@unchecked`: used by one query at a time; the rows are loaded under the lock.
        private let load: () throws -> [PersistentIdentifier: DataStoreSnapshot]
        private let rows = Lock<[PersistentIdentifier: DataStoreSnapshot]?>(nil)

        init(load: @escaping () throws -> [PersistentIdentifier: DataStoreSnapshot]) {
            self.load = load
        }

        func row(for identifier: PersistentIdentifier) throws(DataStoreError) -> DataStoreSnapshot? {
            try rows.withLock { rows throws(DataStoreError) in
                if rows == nil {
                    do {
                        rows = try load()
                    } catch let error as DataStoreError {
                        throw error
                    } catch {
                        throw .storageUnavailable(
                            path: "?", reason: "reading referenced samples failed: \(error)")
                    }
                }
                return rows?[identifier]
            }
        }

        func uniqueHolder(entity: String, attributes: [String], values: [SnapshotValue])
            throws(DataStoreError)
            -> PersistentIdentifier?
        {
            nil
        }
    }
}
