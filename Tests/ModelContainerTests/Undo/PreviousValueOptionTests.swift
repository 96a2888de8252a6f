import DataStoreCore
import DataStoreModels
import Foundation
import JSONFileStorage
import StoreTestSupport
import Testing

/// Adding `.preservePreviousValue` to a store's schema needs no migration: the store opens, later saves record
/// previous values, and earlier history keeps none.
@Suite struct PreviousValueOptionTests {
    @Test func addingTheOptionToAnExistingStoreNeedsNoMigration() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let plain = Schema(
            entities: musicSchema.entities.map { entity in
                var entity = entity
                entity.attributes = entity.attributes.map { attribute in
                    var attribute = attribute
                    attribute.options.remove(.preservePreviousValue)
                    return attribute
                }
                return entity
            })
        let url = directory.url.appendingPathComponent("music")
        let id = PersistentIdentifier(storeIdentifier: "music", entityName: "Playlist", primaryKey: "p")
        do {
            let store = try JSONFileDataStore(.init(name: "music", schema: plain, directory: url))
            _ = try store.save(
                DataStoreSaveChangesRequest(inserted: [
                    DataStoreSnapshot(
                        persistentIdentifier: id,
                        values: ["name": .string("p"), "rating": .integer(1), "songs": .array([])])
                ]))
            _ = try store.save(
                DataStoreSaveChangesRequest(updated: [
                    DataStoreSnapshot(persistentIdentifier: id, values: ["rating": .integer(2)])
                ]))
        }
        let store = try JSONFileDataStore(.init(name: "music", schema: musicSchema, directory: url))
        _ = try store.save(
            DataStoreSaveChangesRequest(updated: [
                DataStoreSnapshot(persistentIdentifier: id, values: ["rating": .integer(3)])
            ]))
        let previous = try store.fetchHistory(HistoryDescriptor()).map { $0.changes.first?.previousValues }
        #expect(previous == [nil, nil, ["rating": .integer(2)]])
    }
}
