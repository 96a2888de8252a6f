import DataStoreCore
import DataStoreModels
import DataStoreSync
import InMemoryStorage
import JSONFileStorage
import StoreTestSupport
import Testing

/// App saves made on the device while a pull runs.
@Suite struct AppSaveDuringPullTests {
    struct LostConnection: Error {}

    /// Devices a and b: a made trip Lisbon, b packed a map on it and pushed it, and a pulled it. With `pulled`
    /// false, b has not pulled its own insert back yet.
    static func bPackedAMap(pulled: Bool) throws -> (
        SyncLab<InMemoryDataStore>, SyncDevice<InMemoryDataStore>, SyncDevice<InMemoryDataStore>
    ) {
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips)))
        let (a, b) = (try lab.device("a"), try lab.device("b"))
        try a.edit { $0.insert(SyncTrip(name: "Lisbon", destination: "Portugal", nights: 3)) }
        try a.sync()
        try b.sync()
        try b.edit { context in
            try #require(try b.trip("Lisbon", in: context)).items.append(SyncItem(title: "map"))
        }
        if pulled { try b.sync() } else { try b.engine.push() }
        try a.sync()
        return (lab, a, b)
    }

    /// Deletes b's map through its app, as a save made while b's pull runs.
    static func deleteTheMap(on device: SyncDevice<InMemoryDataStore>) throws {
        try device.edit { context in
            guard let map = try device.item("map", in: context) else {
                Issue.record("b no longer holds the map before its pull")
                return
            }
            context.delete(map)
        }
    }

    /// Whether every store holds the same trips and items, without the map.
    static func expectConvergedWithoutTheMap(
        _ lab: SyncLab<InMemoryDataStore>, _ devices: [SyncDevice<InMemoryDataStore>]
    ) throws {
        let server = try SyncLab<InMemoryDataStore>.state(of: lab.server)
        #expect(!server.contains { $0.contains(" map|") }, "\(server)")
        for device in devices { #expect(try device.state() == server, "\(device.store.identifier)") }
    }

    /// a deletes the map; b's pull reads one server transaction a page: b's app deletes the map before the
    /// first page (the pull had read what b has not pushed already), and the connection is lost before the
    /// second (a's delete).
    ///
    /// The first page must not bring the map back: b deleted it. It did (the pull's view of what b had not
    /// pushed was read at its start). And the next pull then skipped a's delete as one b had made itself and
    /// not pushed, while b's push of its delete found nothing to delete on the server: b held the map for good
    /// (the sync fault test's playlists workload: a device held an item the server did not, on no list).
    @Test func aModelTheAppDeletesDuringAPullStaysDeleted() throws {
        let (lab, a, b) = try Self.bPackedAMap(pulled: false)
        defer { lab.remove() }
        try a.edit { context in context.delete(try #require(try a.item("map", in: context))) }
        try a.sync()

        b.engine.testHistoryPageSize = 1
        nonisolated(unsafe) let device = b
        nonisolated(unsafe) var pages = 0
        b.engine.beforePullReadsRows = {
            pages += 1
            if pages == 1 { try Self.deleteTheMap(on: device) }
            if pages == 2 { throw LostConnection() }
        }
        #expect(throws: LostConnection.self) { try b.engine.pull() }
        b.engine.beforePullReadsRows = nil
        let afterFirstPull = try b.state()
        #expect(!afterFirstPull.contains { $0.contains(" map|") }, "\(afterFirstPull)")

        try b.engine.pull()
        try b.engine.push()
        try b.sync()
        try a.sync()
        try Self.expectConvergedWithoutTheMap(lab, [a, b])
    }

    /// The same race in a full copy: b's pull token expired (the server's history was trimmed), so its pull
    /// copies the server's rows; b's app deletes its map after the copy read what b has not pushed, before it
    /// read b's rows. The copy must not bring the map back (it did: the server still held it).
    @Test func aModelTheAppDeletesDuringAFullCopyStaysDeleted() throws {
        let (lab, a, b) = try Self.bPackedAMap(pulled: true)
        defer { lab.remove() }
        try a.edit { $0.insert(SyncTrip(name: "Porto", destination: "Portugal", nights: 1)) }
        try a.sync()
        let newest = try #require(try lab.server.fetchHistory(HistoryDescriptor()).last?.token)
        try lab.server.deleteHistory(HistoryDescriptor(predicate: HistoryPredicates.through(newest)))

        nonisolated(unsafe) let device = b
        nonisolated(unsafe) var deleted = false
        b.engine.beforePullReadsRows = {
            guard !deleted else { return }
            deleted = true
            try Self.deleteTheMap(on: device)
        }
        try b.engine.pull()
        b.engine.beforePullReadsRows = nil
        #expect(b.engine.status.resynchronisationCount == 1, "the pull did not copy the server's rows")
        let afterCopy = try b.state()
        #expect(!afterCopy.contains { $0.contains(" map|") }, "\(afterCopy)")

        try b.sync()
        try a.sync()
        try Self.expectConvergedWithoutTheMap(lab, [a, b])
    }
}

extension AppSaveDuringPullTests {
    /// a pushed trip Paris; b's app makes its own Paris while b's pull runs, after the pull read what b has not
    /// pushed: before the page that brings a's Paris, or right before that page's save. The pull must merge b's
    /// Paris into a's, as the server will when b pushes it: one Paris on b, under a's identifier, with b's values
    /// and item. Right before the save, the pull's insert of a's Paris became an update of b's (the store's
    /// upsert) with a's values: b kept its own identifier for it, and the item came off its list. The store now
    /// refuses such an upsert under `.error` (the pull's inserts carry baselines), and the pull reads again.
    @Test(arguments: [false, true])
    func aModelTheAppMakesDuringAPullMergesWithTheServersOfTheSameUniqueValue(rightBeforeItsSave: Bool) throws
    {
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips)))
        defer { lab.remove() }
        let (a, b) = (try lab.device("a"), try lab.device("b"))
        try a.edit { $0.insert(SyncTrip(name: "Lisbon", destination: "Portugal", nights: 3)) }
        try a.sync()
        try b.sync()
        try a.edit { $0.insert(SyncTrip(name: "Paris", destination: "France", nights: 2)) }
        try a.sync()

        nonisolated(unsafe) let device = b
        nonisolated(unsafe) var made = false
        let makeParis: @Sendable () throws -> Void = {
            guard !made else { return }
            made = true
            try device.edit { context in
                let paris = SyncTrip(name: "Paris", destination: "Île-de-France", nights: 4)
                context.insert(paris)
                paris.items.append(SyncItem(title: "passport"))
            }
        }
        if rightBeforeItsSave {
            b.engine.beforePullSaves = makeParis
        } else {
            b.engine.beforePullReadsRows = makeParis
        }
        try b.engine.pull()
        b.engine.beforePullReadsRows = nil
        b.engine.beforePullSaves = nil
        let trips = try b.state().filter { $0.hasPrefix("trip ") && $0.contains(" Paris|") }
        let server = try SyncLab<InMemoryDataStore>.state(of: lab.server).filter { $0.contains(" Paris|") }
        #expect(
            trips.count == 1 && server.count == 1
                && trips[0].split(separator: " ")[1] == server[0].split(separator: " ")[1],
            "b: \(trips), server: \(server)")

        try b.sync()
        try a.sync()
        let final = try SyncLab<InMemoryDataStore>.state(of: lab.server)
        #expect(
            final.filter { $0.hasPrefix("trip ") && $0.hasSuffix("Paris|Île-de-France|4||passport") }.count
                == 1,
            "\(final)")
        #expect(try b.state() == final)
        #expect(try a.state() == final)
    }
}

extension AppSaveDuringPullTests {
    /// b's app looked for Paris, found none and makes its own with a map; a pull brought a's Paris, with a
    /// passport, just before the app saved. The app's insert becomes an update of a's Paris on b (the store's
    /// upsert), which replaced Paris's list: the passport came off it, and the push took it off on every
    /// device. Both items must stay on the one Paris, as when the server merges two devices' trips.
    @Test func aTripTheAppMakesJustAfterAPullBroughtOneOfItsNameKeepsTheOtherDevicesItems() throws {
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips)))
        defer { lab.remove() }
        let (a, b) = (try lab.device("a"), try lab.device("b"))
        try a.edit { context in
            let paris = SyncTrip(name: "Paris", destination: "France", nights: 2)
            context.insert(paris)
            paris.items.append(SyncItem(title: "passport"))
        }
        try a.sync()
        try b.edit { context in
            #expect(try b.trip("Paris", in: context) == nil)
            try b.engine.pull()
            let paris = SyncTrip(name: "Paris", destination: "Île-de-France", nights: 4)
            context.insert(paris)
            paris.items.append(SyncItem(title: "map"))
        }
        try b.sync()
        try a.sync()
        let server = try SyncLab<InMemoryDataStore>.state(of: lab.server)
        #expect(
            server.filter { $0.hasPrefix("trip ") && $0.hasSuffix("Paris|Île-de-France|4||passport,map") }
                .count
                == 1,
            "\(server)")
        #expect(try b.state() == server)
        #expect(try a.state() == server)
    }
}
