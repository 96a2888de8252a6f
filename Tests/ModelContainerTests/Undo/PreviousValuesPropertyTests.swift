import DataStoreCore
import DataStoreModels
import Foundation
import StoreTestSupport
import Testing

/// History's previous values are exact: starting from the current rows and taking back each transaction,
/// newest first, by its previous values alone reproduces every earlier state of the store.
@Suite struct PreviousValuesPropertyTests {
    @Test(arguments: MusicStore.allCases)
    func replayingHistoryBackwardsReproducesEveryEarlierState(_ kind: MusicStore) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var kinds: [String: Int] = [:]
        for seed in UInt64(0)..<200 {
            guard try replay(seed: seed, on: kind.open("music-\(seed)", in: directory.url), counting: &kinds)
            else { return }
        }
        // The sequences exercise every kind of change, relationships included, many times.
        for kind in ["insert", "update", "delete", "update of a relationship"] {
            #expect(kinds[kind, default: 0] >= 200, "\(kind): \(kinds[kind, default: 0]) changes")
        }
    }

    /// Makes random saves on `store`, then takes history back; `false` after the first mismatch.
    func replay(seed: UInt64, on store: some HistoryProvidingStore, counting kinds: inout [String: Int])
        throws
        -> Bool
    {
        var generator = SplitMix64(seed: seed)
        var states = [try musicRows(store)]
        for _ in 0..<12 {
            let request = randomSave(over: states.last!, store: store.identifier, using: &generator)
            guard (try? store.save(request))?.token != nil else { continue }
            states.append(try musicRows(store))
        }
        let history = try changesOfEachTransaction(store)
        for change in history.joined() {
            kinds["\(change.kind)", default: 0] += 1
            if change.updatedAttributes.contains(where: { $0 == "songs" || $0 == "playlist" }) {
                kinds["update of a relationship", default: 0] += 1
            }
        }
        #expect(history.count == states.count - 1, "seed \(seed): one transaction per successful save")
        var rows = states.last!
        for (index, changes) in history.enumerated().reversed() {
            takeBack(changes, from: &rows)
            #expect(rows == states[index], "seed \(seed): the state before transaction \(index + 1)")
            if rows != states[index] { return false }
        }
        return true
    }

    func changesOfEachTransaction(_ store: some HistoryProvidingStore) throws -> [[any HistoryChange]] {
        try store.fetchHistory(HistoryDescriptor()).map { $0.changes.map { $0 as any HistoryChange } }
    }

    /// Undoes one transaction's changes on `rows` by their previous values.
    func takeBack(
        _ changes: [any HistoryChange], from rows: inout [PersistentIdentifier: [String: SnapshotValue]]
    ) {
        for change in changes.reversed() {
            let id = change.changedPersistentIdentifier
            switch change.kind {
            case .insert:
                rows[id] = nil
            case .update:
                for name in change.updatedAttributes { rows[id]?[name] = change.previousValues?[name] }
            case .delete:
                rows[id] = change.previousValues
            }
        }
    }

    /// A save of a few random inserts, updates (attributes and both sides of the relationship) and deletes.
    func randomSave(
        over rows: [PersistentIdentifier: [String: SnapshotValue]], store: String,
        using generator: inout SplitMix64
    ) -> DataStoreSaveChangesRequest {
        var request = DataStoreSaveChangesRequest()
        var used = Set<PersistentIdentifier>()
        let existing = rows.keys.sorted()
        let playlists = existing.filter { $0.entityName == Playlist.entityName }
        let songs = existing.filter { $0.entityName == Song.entityName }
        func identifier(_ entity: String) -> PersistentIdentifier {
            PersistentIdentifier(
                storeIdentifier: store, entityName: entity,
                primaryKey: String(generator.next() % 1_000_000_000))
        }
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            switch Int.random(in: 0..<7, using: &generator) {
            case 0:
                // A few names only, so that some inserts become upserts of a playlist with the same name.
                request.inserted.append(
                    DataStoreSnapshot(
                        persistentIdentifier: identifier(Playlist.entityName),
                        values: [
                            "name": .string("list \(Int.random(in: 0..<6, using: &generator))"),
                            "rating": .integer(Int64.random(in: 0..<5, using: &generator)),
                            "comment": .string(""),
                            "songs": .array([]),
                        ]))
            case 1:
                let playlist =
                    playlists.randomElement(using: &generator).map(SnapshotValue.identifier) ?? .null
                request.inserted.append(
                    DataStoreSnapshot(
                        persistentIdentifier: identifier(Song.entityName),
                        values: [
                            "title": .string("song \(generator.next() % 100)"),
                            "plays": .integer(Int64.random(in: 0..<100, using: &generator)),
                            "playlist": playlist,
                        ]))
            case 2, 3:
                guard let song = songs.randomElement(using: &generator), used.insert(song).inserted else {
                    continue
                }
                var values: [String: SnapshotValue] = [:]
                if Bool.random(using: &generator) {
                    values["plays"] = .integer(Int64(generator.next() % 100))
                }
                if Bool.random(using: &generator) {
                    values["title"] = .string("retitled \(generator.next() % 9)")
                }
                if Bool.random(using: &generator) {
                    values["playlist"] =
                        playlists.randomElement(using: &generator).map(SnapshotValue.identifier) ?? .null
                }
                request.updated.append(DataStoreSnapshot(persistentIdentifier: song, values: values))
            case 4:
                guard let playlist = playlists.randomElement(using: &generator),
                    used.insert(playlist).inserted
                else { continue }
                var values: [String: SnapshotValue] = ["rating": .integer(Int64(generator.next() % 5))]
                if Bool.random(using: &generator) {
                    values["songs"] = .array(
                        songs.filter { _ in Bool.random(using: &generator) }.map(SnapshotValue.identifier))
                }
                request.updated.append(DataStoreSnapshot(persistentIdentifier: playlist, values: values))
            default:
                guard let victim = existing.randomElement(using: &generator), used.insert(victim).inserted
                else {
                    continue
                }
                request.deleted.append(DataStoreSnapshot(persistentIdentifier: victim, values: [:]))
            }
        }
        return request
    }
}
