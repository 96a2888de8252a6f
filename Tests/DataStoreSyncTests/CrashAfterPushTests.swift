import DataStoreCore
import DataStoreModels
import DataStoreSync
import InMemoryStorage
import JSONFileStorage
import StoreTestSupport
import Synchronization
import Testing

/// A crash between a push and the correction of the device that follows it.
@Suite struct CrashAfterPushTests {
    struct Crash: Error {}

    /// Devices a and b: a pushed trip Paris; b made its own Paris, then a note and an item on it, and crashed
    /// right after its first push (which the server merged into a's Paris), before the correction. Returns b's
    /// restarted engine: a new one, nothing of the old one's memory.
    static func bCrashedAfterItsParisWasMerged() throws -> (
        SyncLab<InMemoryDataStore>, SyncDevice<InMemoryDataStore>, SyncDevice<InMemoryDataStore>,
        SyncEngine<JSONFileDataStore, InMemoryDataStore>
    ) {
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips)))
        let (a, b) = (try lab.device("a"), try lab.device("b"))
        try a.edit { $0.insert(SyncTrip(name: "Paris", destination: "France", nights: 2)) }
        try a.sync()
        try b.edit { $0.insert(SyncTrip(name: "Paris", destination: "Île-de-France", nights: 4)) }
        try b.edit { context in
            let paris = try #require(try b.trip("Paris", in: context))
            paris.notes = "book the train"
            paris.items.append(SyncItem(title: "passport"))
        }
        return (lab, a, b, try restartedAfterACrashInItsFirstPush(b, lab))
    }

    /// `b`'s engine after its push was cut short by a crash right after its first transaction's server save,
    /// before the correction: a new engine on `b`'s store, nothing of the old one's memory.
    static func restartedAfterACrashInItsFirstPush(
        _ b: SyncDevice<InMemoryDataStore>, _ lab: SyncLab<InMemoryDataStore>
    ) throws -> SyncEngine<JSONFileDataStore, InMemoryDataStore> {
        b.engine.afterPushSaved = { throw Crash() }
        #expect(throws: Crash.self) { try b.engine.push() }
        return try SyncEngine(
            local: b.store, server: lab.server, device: b.store.identifier,
            models: [SyncTrip.self, SyncItem.self])
    }

    /// The one trip the server and every device must end with: a's Paris with b's values (the later
    /// insert's), the note and the item.
    static func expectOneParis(_ lab: SyncLab<InMemoryDataStore>, _ devices: [SyncDevice<InMemoryDataStore>])
        throws
    {
        let server = try SyncLab<InMemoryDataStore>.state(of: lab.server).filter { $0.hasPrefix("trip ") }
        #expect(
            server.count == 1
                && server.first?.hasSuffix("Paris|Île-de-France|4|book the train|passport") == true,
            "\(server)")
        for device in devices {
            let trips = try device.state().filter { $0.hasPrefix("trip ") }
            #expect(trips == server, "\(device.store.identifier): \(trips)")
        }
    }

    /// After the restart the edit (a note, an item packed) must reach the server's trip, and the device must end
    /// with the server's trip alone (the edit was dropped as an edit of a trip deleted elsewhere).
    @Test func anEditOfAMergedTripSurvivesACrashBeforeTheCorrection() throws {
        let (lab, a, b, restarted) = try Self.bCrashedAfterItsParisWasMerged()
        defer { lab.remove() }
        try restarted.sync()
        try a.sync()
        try Self.expectOneParis(lab, [a, b])
    }
}

extension CrashAfterPushTests {
    /// The same crash, but the restarted device pulls before it pushes: the pull merges the device's trip into
    /// the server's (its later edit is still to push), which deletes the device's trip, and the push of the
    /// edit then found no row to read the trip's unique name from, and dropped the edit as an edit of a trip
    /// deleted elsewhere (the sync fault test's lists workload: a stamp that never reached the server).
    @Test func anEditOfAMergedTripSurvivesACrashAndAPullBeforeItsPush() throws {
        let (lab, a, b, restarted) = try Self.bCrashedAfterItsParisWasMerged()
        defer { lab.remove() }
        try restarted.pull()
        try restarted.push()
        let server = try SyncLab<InMemoryDataStore>.state(of: lab.server).filter { $0.hasPrefix("trip ") }
        #expect(server.first?.hasSuffix("|book the train|passport") == true, "\(server)")
        try restarted.sync()
        try a.sync()
        try Self.expectOneParis(lab, [a, b])
    }
}

extension CrashAfterPushTests {
    /// a edits twenty trips, one save each, that b deletes before a pushes: each pushed edit names a trip
    /// neither the server nor a holds, which the push looks for among a's own inserts (a trip merged into
    /// another on insert). a's history is read once for all twenty, not once for each: a device of the fault
    /// test that read it again for every such edit spent most of its pushes there, and fell minutes behind.
    @Test func editsOfTripsDeletedElsewhereReadTheDevicesHistoryOnce() throws {
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips)))
        defer { lab.remove() }
        let (a, b) = (try lab.device("a"), try lab.device("b"))
        let names = (0..<20).map { "trip-\($0)" }
        try b.edit { context in for name in names { context.insert(SyncTrip(name: name)) } }
        try b.sync()
        try a.sync()
        for name in names {
            try a.edit { context in try #require(try a.trip(name, in: context)).nights = 3 }
        }
        try b.edit { context in
            for trip in try context.fetch(FetchDescriptor<SyncTrip>()) { context.delete(trip) }
        }
        try b.sync()
        try a.engine.pull()
        try a.engine.push()
        let history = try a.store.fetchHistory(HistoryDescriptor()).count
        #expect(a.engine.transactionsReadForOwnInserts > 0)
        #expect(
            a.engine.transactionsReadForOwnInserts <= history, "a's history holds \(history) transactions")
        #expect(try SyncLab<InMemoryDataStore>.state(of: lab.server).filter { $0.hasPrefix("trip ") }.isEmpty)
        try a.sync()
        #expect(try a.state() == (try SyncLab<InMemoryDataStore>.state(of: lab.server)))
    }

    /// b, which had pulled before, made Paris after a had pushed its own, pushed it (the server merged it into
    /// a's) and crashed before the correction, with nothing left to push. Its next pull brings a's Paris, whose
    /// name b's own Paris still holds: the pull must merge b's Paris into a's, as the correction would have.
    /// Without the restart too (a correction cut short by a lost connection). Before, the device's store made
    /// the pull's insert an update of b's Paris, so b kept its own identifier for it and never applied a's later
    /// edits of it; with the pull's inserts checked against their baselines, the pull failed at every try.
    @Test(arguments: [false, true])
    func aPullMergesATripThatACrashLeftUnmerged(restart: Bool) throws {
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips)))
        defer { lab.remove() }
        let (a, b) = (try lab.device("a"), try lab.device("b"))
        try a.edit { $0.insert(SyncTrip(name: "Lisbon", destination: "Portugal", nights: 2)) }
        try a.sync()
        try b.sync()
        try a.edit { $0.insert(SyncTrip(name: "Paris", destination: "France", nights: 2)) }
        try a.sync()
        try b.edit { $0.insert(SyncTrip(name: "Paris", destination: "Île-de-France", nights: 4)) }
        b.engine.afterPushSaved = { throw Crash() }
        #expect(throws: Crash.self) { try b.engine.push() }
        b.engine.afterPushSaved = nil
        let engine =
            restart
            ? try SyncEngine(
                local: b.store, server: lab.server, device: b.store.identifier,
                models: [SyncTrip.self, SyncItem.self]) : b.engine
        try engine.sync()
        try a.edit { context in
            try #require(try a.trip("Paris", in: context)).items.append(SyncItem(title: "passport"))
        }
        try a.sync()
        try engine.sync()
        let server = try SyncLab<InMemoryDataStore>.state(of: lab.server)
        #expect(server.contains { $0.hasSuffix("Paris|Île-de-France|4||passport") }, "\(server)")
        #expect(try b.state() == server)
        #expect(try a.state() == server)
    }
}

extension CrashAfterPushTests {
    /// Devices a and b: a pushed trip Paris; b, which had pulled before, made its own Paris (and, with
    /// `edited`, changed its nights), deleted it, and crashed right after the push of its insert (which the
    /// server merged into a's Paris), before the correction. Returns b's restarted engine.
    static func bCrashedAfterItsDeletedParisWasMerged(edited: Bool) throws -> (
        SyncLab<InMemoryDataStore>, SyncDevice<InMemoryDataStore>, SyncDevice<InMemoryDataStore>,
        SyncEngine<JSONFileDataStore, InMemoryDataStore>
    ) {
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips)))
        let (a, b) = (try lab.device("a"), try lab.device("b"))
        try b.sync()
        try a.edit { $0.insert(SyncTrip(name: "Paris", destination: "France", nights: 2)) }
        try a.sync()
        try b.edit { $0.insert(SyncTrip(name: "Paris", destination: "Île-de-France", nights: 4)) }
        if edited { try b.edit { context in try #require(try b.trip("Paris", in: context)).nights = 5 } }
        try b.edit { context in context.delete(try #require(try b.trip("Paris", in: context))) }
        return (lab, a, b, try restartedAfterACrashInItsFirstPush(b, lab))
    }

    /// b's delete is the last word on Paris: no store holds it.
    static func expectNoParis(_ lab: SyncLab<InMemoryDataStore>, _ devices: [SyncDevice<InMemoryDataStore>])
        throws
    {
        let server = try SyncLab<InMemoryDataStore>.state(of: lab.server)
        #expect(!server.contains { $0.contains(" Paris|") }, "\(server)")
        for device in devices {
            #expect(try device.state() == server, "\(device.store.identifier)")
        }
    }

    /// The restarted engine's push of b's delete names a trip the server never held: it must go to the trip
    /// the insert was merged into, as it does without the crash. Before, it was dropped as a delete of a trip
    /// deleted elsewhere, and a's Paris stayed everywhere with b's values.
    @Test func aDeleteOfAMergedTripSurvivesACrashBeforeTheCorrection() throws {
        let (lab, a, b, restarted) = try Self.bCrashedAfterItsDeletedParisWasMerged(edited: false)
        defer { lab.remove() }
        try restarted.sync()
        try a.sync()
        try Self.expectNoParis(lab, [a, b])
    }

    /// The same with an edit between b's insert and its delete. Restarted, b pulled a's Paris and deleted it
    /// too; its next push sent the edit to a's Paris (found by b's own insert's name), the correction after
    /// that brought a's Paris back on b, and the push of b's first delete then deleted it on the server, which
    /// the pull that followed did not apply (b's second delete was still to push, and a pull leaves a model
    /// the device deleted alone). b then held a Paris that nobody else did (the sync fault test's marks
    /// workload: a tag inserted on a device twice by its corrections, and never deleted there). A correction
    /// merges the device's model into the server's: it must not make a model the device holds neither of.
    @Test func aCorrectionDoesNotBringBackAMergedModelTheDeviceDeleted() throws {
        let (lab, a, b, restarted) = try Self.bCrashedAfterItsDeletedParisWasMerged(edited: true)
        defer { lab.remove() }
        try restarted.pull()
        #expect(try b.state().contains { $0.contains(" Paris|") }, "b pulled a's Paris")
        try b.edit { context in context.delete(try #require(try b.trip("Paris", in: context))) }
        // The push of the edit goes through; the push of b's first delete is cut short after its server save.
        let pushed = Mutex(0)
        restarted.afterPushSaved = {
            if pushed.withLock({ count in
                count += 1
                return count == 2
            }) {
                throw Crash()
            }
        }
        #expect(throws: Crash.self) { try restarted.push() }
        #expect(!(try b.state().contains { $0.contains(" Paris|") }), "the correction brought Paris back")
        restarted.afterPushSaved = nil
        try restarted.pull()
        try restarted.sync()
        try a.sync()
        try Self.expectNoParis(lab, [a, b])
    }
}
