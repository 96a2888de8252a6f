import DataStoreCore
import Foundation
import InMemoryStorage
import Testing

/// What a retained change costs in memory, checked by structure rather than by timing or heap size: changes
/// naming the same attributes share one array of names, and a change's values read back whole.
@Suite struct RetainedHistoryMemoryTests {
    /// The address of an array's storage, to tell shared storage from an equal copy.
    static func storage(_ names: [String]) -> UnsafeRawPointer? {
        names.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func updatesOfTheSameAttributeShareTheirNameList() throws {
        let store = try makeNoteStore()
        for key in ["a", "b"] { _ = try saveNote(key, to: store) }
        for (round, key) in ["a", "b", "a"].enumerated() {
            let id = PersistentIdentifier(
                storeIdentifier: store.identifier, entityName: "Note", primaryKey: key)
            _ = try store.save(
                DataStoreSaveChangesRequest(
                    updated: [
                        DataStoreSnapshot(
                            persistentIdentifier: id, values: ["body": .string("edit \(round)")])
                    ]))
        }
        let changes = try store.fetchHistory(HistoryDescriptor()).flatMap(\.changes)
        let inserts = changes.filter { $0.kind == .insert }
        let updates = changes.filter { $0.kind == .update }
        #expect(inserts.count == 2 && updates.count == 3)
        // The values read back as written, one value or several.
        #expect(updates.map(\.values) == (0..<3).map { ["body": .string("edit \($0)")] })
        #expect(inserts.first?.values == ["title": .string("a"), "body": .string(""), "rank": .integer(0)])
        // One name list for the three updates, made by three saves.
        let updateLists = Set(updates.map { Self.storage($0.updatedAttributes) })
        #expect(updateLists.count == 1 && updates.allSatisfy { $0.updatedAttributes == ["body"] })
    }
}
