import DataStoreCore
import DataStoreModels
import DataStoreSync
import InMemoryStorage
import JSONFileStorage
import StoreTestSupport
import Synchronization
import Testing

/// The engine reads history a page at a time (`SyncEngine.historyPageSize`, set small here): what a push sends,
/// what a pull applies, what a device has not pushed yet and what others changed. Each rule that looks past
/// one transaction must still see the pages after it (for the corrections after a push,
/// `ListOrderSyncTests.aCorrectionLeavesAnEditStillToPushAlone(pageSize:)`).
@Suite struct HistoryPagesTests {
    typealias Device = SyncDevice<InMemoryDataStore>

    /// A lab with an in-memory server and devices a and b, both holding the trip Lisbon with a map, both
    /// engines reading `pageSize` transactions at a time.
    static func lab(pageSize: Int) throws -> (SyncLab<InMemoryDataStore>, Device, Device) {
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips)))
        let (a, b) = (try lab.device("a"), try lab.device("b"))
        a.engine.testHistoryPageSize = pageSize
        b.engine.testHistoryPageSize = pageSize
        try a.edit { context in
            let trip = SyncTrip(name: "Lisbon", destination: "Portugal", nights: 3)
            context.insert(trip)
            trip.items.append(SyncItem(title: "map"))
        }
        try a.sync()
        try b.sync()
        return (lab, a, b)
    }

    static func lisbon(_ device: Device, _ context: ModelContext) throws -> SyncTrip {
        try #require(try device.trip("Lisbon", in: context))
    }

    /// A device offline for 20 saves pushes them all, one server transaction each and in order, holding three
    /// at a time; the other device pulls them three at a time and ends holding the same.
    @Test func aLongOfflineDeviceIsPushedAndPulledAPageAtATime() throws {
        let (lab, a, b) = try Self.lab(pageSize: 3)
        defer { lab.remove() }
        for night in 1...20 {
            try a.edit { context in
                let trip = try Self.lisbon(a, context)
                trip.nights = night
                if night % 4 == 0 { trip.items.append(SyncItem(title: "item \(night)")) }
            }
        }
        let before = try lab.server.fetchHistory(HistoryDescriptor()).count
        try a.sync()
        let pushed = try lab.server.fetchHistory(HistoryDescriptor()).dropFirst(before)
            .filter { $0.author == a.engine.pushAuthor }
        #expect(pushed.count == 20, "\(pushed.count) server transactions")
        let nights = pushed.compactMap { transaction in
            transaction.changes.first { $0.updatedAttributes.contains("nights") }?.values["nights"]
        }
        #expect(nights == (1...20).map { .integer(Int64($0)) }, "\(nights)")
        try b.sync()
        #expect(try b.state() == a.state())
        #expect(b.engine.status.pulledTransactionCount == 20)
        #expect(a.engine.largestHistoryPage == 3)
        #expect(b.engine.largestHistoryPage == 3)
    }

    /// A pull keeps what the device has not pushed, even when the edit is pages into the device's history: the
    /// device's destination, saved last of five, stands over the one another device pushed meanwhile.
    @Test func aPullKeepsAnUnpushedEditPagesIntoTheDevicesHistory() throws {
        let (lab, a, b) = try Self.lab(pageSize: 2)
        defer { lab.remove() }
        try a.edit { try Self.lisbon(a, $0).destination = "Algarve" }
        try a.sync()
        for note in 1...4 { try b.edit { try Self.lisbon(b, $0).notes = "note \(note)" } }
        try b.edit { try Self.lisbon(b, $0).destination = "Sintra" }
        try b.engine.pull()
        #expect(try Self.lisbon(b, ModelContext(b.container)).destination == "Sintra")
        try b.sync()
        try a.sync()
        for device in [a, b] {
            let trip = try Self.lisbon(device, ModelContext(device.container))
            #expect(trip.destination == "Sintra" && trip.notes == "note 4", "\(device.store.identifier)")
        }
        #expect(b.engine.largestHistoryPage == 2)
    }

    /// A device whose history was trimmed uploads what it holds, keeping what others changed since it last
    /// pulled: all of it, though it spans pages of the server's history.
    @Test func anUploadAfterLostHistoryKeepsOthersEditsOnEveryPage() throws {
        let (lab, a, b) = try Self.lab(pageSize: 1)
        defer { lab.remove() }
        try a.edit { try Self.lisbon(a, $0).nights = 7 }
        try a.edit { try Self.lisbon(a, $0).destination = "Algarve" }
        try a.edit { try Self.lisbon(a, $0).notes = "from a" }
        try a.edit { try Self.lisbon(a, $0).items.append(SyncItem(title: "sunscreen")) }
        try a.sync()
        try b.edit { $0.insert(SyncTrip(name: "Oslo", destination: "Norway", nights: 2)) }
        if let newest = try b.store.fetchHistory(HistoryDescriptor()).last?.token {
            try b.store.deleteHistory(HistoryDescriptor(predicate: HistoryPredicates.through(newest)))
        }
        #expect(try b.sync().resynchronised)
        try a.sync()
        for device in [a, b] {
            let trip = try Self.lisbon(device, ModelContext(device.container))
            let state = try device.state()
            #expect(
                trip.nights == 7 && trip.destination == "Algarve" && trip.notes == "from a"
                    && trip.items.map(\.title) == ["map", "sunscreen"],
                "\(device.store.identifier): \(state)")
            #expect(try device.trip("Oslo", in: ModelContext(device.container)) != nil)
        }
        #expect(b.engine.largestHistoryPage == 1)
    }

    /// The device's history is trimmed while a push reads it a page at a time (a retention, say): the push
    /// cannot go on transaction by transaction, so it uploads what the device holds, as the next push would
    /// have, and nothing the device saved is lost.
    @Test func aHistoryTrimmedWhileItIsPushedIsUploadedWhole() throws {
        let (lab, a, b) = try Self.lab(pageSize: 2)
        defer { lab.remove() }
        for night in 1...6 { try a.edit { try Self.lisbon(a, $0).nights = 10 + night } }
        try a.edit { $0.insert(SyncTrip(name: "Oslo", destination: "Norway", nights: 2)) }
        let trimmed = Mutex(false)
        let store = a.store
        a.engine.afterPushSaved = {
            guard
                trimmed.withLock({ done in
                    defer { done = true }
                    return !done
                })
            else { return }
            if let newest = try store.fetchHistory(HistoryDescriptor()).last?.token {
                try store.deleteHistory(HistoryDescriptor(predicate: HistoryPredicates.through(newest)))
            }
        }
        let outcome = try a.sync()
        #expect(outcome.resynchronised)
        #expect(a.engine.status.resynchronisationCount == 1)
        try b.sync()
        #expect(try b.state() == a.state())
        let trip = try Self.lisbon(b, ModelContext(b.container))
        #expect(trip.nights == 16)
        #expect(try b.trip("Oslo", in: ModelContext(b.container)) != nil)
    }
}
