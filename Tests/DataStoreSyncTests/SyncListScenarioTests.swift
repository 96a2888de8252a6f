import DataStoreCore
import DataStoreSync
import Foundation
import InMemoryStorage
import StoreTestSupport
import Testing

/// `SyncListScenario` against an in-memory server (`PostgresSyncListScenarioTests` runs it against
/// PostgreSQL), for two spellings: trips whose items keep no previous values (the order travels as
/// `PushedListOrder` describes), and playlists whose songs do (the list is pushed as an edit of its baseline).
/// 60 seeds of 30 rounds each in `swift test`; `DATASTORE_SOAK=1` runs 600 (`SoakSeeds`).
@Suite struct SyncListScenarioTests {
    let scenario = SyncListScenario { schema in try InMemoryDataStore(.init(name: "server", schema: schema)) }
    let seeds = SoakSeeds.range(quick: 60)

    @Test func listsWithoutPreviousValuesConverge() throws {
        try check(SyncTrip.self, schema: SyncSchemas.trips)
    }

    @Test func listsWithPreviousValuesConverge() throws {
        try check(Playlist.self, schema: SyncSchemas.music)
    }

    /// The server's history is deleted every 10 rounds: devices behind resynchronise from a full copy, keeping
    /// their unpushed list edits, and still converge.
    @Test func listsConvergeWhenTheServersHistoryIsTrimmed() throws {
        let resynchronisations =
            try check(SyncTrip.self, schema: SyncSchemas.trips, trimServerEvery: 10)
            + check(Playlist.self, schema: SyncSchemas.music, trimServerEvery: 10)
        #expect(resynchronisations > seeds.count / 2, "\(resynchronisations) resynchronisations")
    }

    /// A device's own history is deleted every 7 rounds, unpushed work included: its next push or pull uploads
    /// what it holds, its values winning where no one else wrote since it last pulled, and a full copy follows. The rules still hold, as long as the deleted
    /// models such a device brings back are allowed (Docs/Sync.md). 40 seeds per spelling (400 with soak).
    @Test func listsConvergeWhenADevicesHistoryIsTrimmed() throws {
        let seeds = SoakSeeds.range(quick: 40)
        let resynchronisations =
            try check(SyncTrip.self, schema: SyncSchemas.trips, trimDevicesEvery: 7, seeds: seeds)
            + check(Playlist.self, schema: SyncSchemas.music, trimDevicesEvery: 7, seeds: seeds)
        #expect(resynchronisations > seeds.count, "\(resynchronisations) resynchronisations")
    }

    /// The same, with the second device only reading: its uploads after its history was deleted must write
    /// nothing but its cursors (they wrote its stale values over the others' edits, and brought back models
    /// they had deleted).
    @Test func aDeviceThatOnlyReadsNeverRevertsOthersEdits() throws {
        let seeds = SoakSeeds.range(quick: 40)
        let resynchronisations =
            try check(
                SyncTrip.self, schema: SyncSchemas.trips, trimDevicesEvery: 3, secondDeviceOnlyReads: true,
                seeds: seeds)
            + check(
                Playlist.self, schema: SyncSchemas.music, trimDevicesEvery: 3, secondDeviceOnlyReads: true,
                seeds: seeds)
        #expect(resynchronisations > seeds.count, "\(resynchronisations) resynchronisations")
    }

    /// The engines read history two transactions at a time (`SyncEngine.historyPageSize` is 256), so that
    /// pushes, pulls and uploads span pages, with both histories trimmed now and then. 30 seeds per spelling
    /// (300 with soak).
    @Test func listsConvergeWhenHistoryIsReadTwoTransactionsAtATime() throws {
        let seeds = SoakSeeds.range(quick: 30)
        try check(
            SyncTrip.self, schema: SyncSchemas.trips, trimServerEvery: 10, trimDevicesEvery: 7,
            historyPageSize: 2, seeds: seeds)
        try check(
            Playlist.self, schema: SyncSchemas.music, trimServerEvery: 10, trimDevicesEvery: 7,
            historyPageSize: 2, seeds: seeds)
    }

    /// Runs the seeds; returns how many resynchronisations they made. With `historyPageSize`, checks that the
    /// engines read no more than that at once, and that many at least once (history spanned pages).
    @discardableResult
    func check<Model: ListOwningModel>(
        _ model: Model.Type, schema: Schema, trimServerEvery: Int? = nil, trimDevicesEvery: Int? = nil,
        secondDeviceOnlyReads: Bool = false, historyPageSize: Int? = nil, seeds: Range<Int>? = nil
    ) throws -> Int {
        let seeds = seeds ?? self.seeds
        var (reorders, restarts, resynchronisations, largestHistoryPage) = (0, 0, 0, 0)
        for seed in seeds {
            let outcome = try scenario.run(
                model, schema: schema, seed: UInt64(seed), trimServerEvery: trimServerEvery,
                trimDevicesEvery: trimDevicesEvery, secondDeviceOnlyReads: secondDeviceOnlyReads,
                historyPageSize: historyPageSize)
            #expect(outcome.problems.isEmpty, "seed \(seed): \(outcome.problems.joined(separator: "\n"))")
            reorders += outcome.reorders
            restarts += outcome.restarts
            resynchronisations += outcome.resynchronisations
            largestHistoryPage = max(largestHistoryPage, outcome.largestHistoryPage)
        }
        if let historyPageSize {
            #expect(largestHistoryPage == historyPageSize, "a history read held \(largestHistoryPage)")
        }
        #expect(reorders > seeds.count * 3, "the edits reordered \(reorders) lists")
        #expect(restarts > seeds.count / 2, "the engines restarted \(restarts) times")
        return resynchronisations
    }
}
