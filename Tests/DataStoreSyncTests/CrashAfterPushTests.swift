import DataStoreCore
import DataStoreModels
import DataStoreSync
import InMemoryStorage
import JSONFileStorage
import StoreTestSupport
import Testing

/// A crash between a push and the correction of the device that follows it.
@Suite struct CrashAfterPushTests {
    struct Crash: Error {}

    /// A device's new trip takes a name another device pushed first, so the server merges it into that trip;
    /// the device crashes before it is corrected, with a later edit of the trip still to push. After a restart
    /// the edit (a note, an item packed) must reach the server's trip, and the device must end with the
    /// server's trip alone (the edit was dropped as an edit of a trip deleted elsewhere).
    @Test func anEditOfAMergedTripSurvivesACrashBeforeTheCorrection() throws {
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips)))
        defer { lab.remove() }
        let (a, b) = (try lab.device("a"), try lab.device("b"))
        try a.edit { $0.insert(SyncTrip(name: "Paris", destination: "France", nights: 2)) }
        try a.sync()
        try b.edit { $0.insert(SyncTrip(name: "Paris", destination: "Île-de-France", nights: 4)) }
        try b.edit { context in
            let paris = try #require(try b.trip("Paris", in: context))
            paris.notes = "book the train"
            paris.items.append(SyncItem(title: "passport"))
        }
        b.engine.afterPushSaved = { throw Crash() }
        #expect(throws: Crash.self) { try b.engine.push() }
        // The device restarts: a new engine, nothing of the old one's memory.
        let restarted = try SyncEngine(
            local: b.store, server: lab.server, device: b.store.identifier,
            models: [SyncTrip.self, SyncItem.self])
        try restarted.sync()
        try a.sync()
        for device in [a, b] {
            let trips = try device.state().filter { $0.hasPrefix("trip ") }
            #expect(
                trips.count == 1
                    && trips.first?.hasSuffix("Paris|Île-de-France|4|book the train|passport") == true,
                "\(device.store.identifier): \(trips)")
        }
    }
}

extension CrashAfterPushTests {
    /// The same crash, but the restarted device pulls before it pushes: the pull merges the device's trip into
    /// the server's (its later edit is still to push), which deletes the device's trip, and the push of the
    /// edit then found no row to read the trip's unique name from, and dropped the edit as an edit of a trip
    /// deleted elsewhere (the sync fault test's lists workload: a stamp that never reached the server).
    @Test func anEditOfAMergedTripSurvivesACrashAndAPullBeforeItsPush() throws {
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips)))
        defer { lab.remove() }
        let (a, b) = (try lab.device("a"), try lab.device("b"))
        try a.edit { $0.insert(SyncTrip(name: "Paris", destination: "France", nights: 2)) }
        try a.sync()
        try b.edit { $0.insert(SyncTrip(name: "Paris", destination: "Île-de-France", nights: 4)) }
        try b.edit { context in
            let paris = try #require(try b.trip("Paris", in: context))
            paris.notes = "book the train"
            paris.items.append(SyncItem(title: "passport"))
        }
        b.engine.afterPushSaved = { throw Crash() }
        #expect(throws: Crash.self) { try b.engine.push() }
        let restarted = try SyncEngine(
            local: b.store, server: lab.server, device: b.store.identifier,
            models: [SyncTrip.self, SyncItem.self])
        try restarted.pull()
        try restarted.push()
        try restarted.sync()
        try a.sync()
        let server = try SyncLab<InMemoryDataStore>.state(of: lab.server).filter { $0.hasPrefix("trip ") }
        #expect(
            server.count == 1
                && server.first?.hasSuffix("Paris|Île-de-France|4|book the train|passport") == true,
            "\(server)")
        for device in [a, b] {
            let trips = try device.state().filter { $0.hasPrefix("trip ") }
            #expect(trips == server, "\(device.store.identifier): \(trips)")
        }
    }
}
