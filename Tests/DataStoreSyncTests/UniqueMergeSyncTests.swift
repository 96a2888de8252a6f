import DataStoreCore
import DataStoreModels
import DataStoreSync
import InMemoryStorage
import JSONFileStorage
import StoreTestSupport
import Testing

/// Two devices make a trip of the same unique name, each packing items on it: the server merges the later
/// insert into the first trip (`uniqueNameCollisionMergesIntoTheFirstModel`), and neither device's items may
/// come off the merged trip's list.
@Suite struct UniqueMergeSyncTests {
    typealias Device = SyncDevice<InMemoryDataStore>

    /// Devices a and b of a lab with an in-memory server; b has made and pushed trip N with a map on it, and a,
    /// which has not pulled it, has made its own N with a passport. With `pulledBefore`, both devices pulled a
    /// trip Lisbon first, so that a's next pull reads the server's history; without, it is a's first pull (a
    /// full copy).
    static func bothMadeN(pulledBefore: Bool) throws -> (SyncLab<InMemoryDataStore>, Device, Device) {
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips)))
        let (a, b) = (try lab.device("a"), try lab.device("b"))
        if pulledBefore {
            try a.edit { $0.insert(SyncTrip(name: "Lisbon")) }
            try a.sync()
            try b.sync()
        }
        try b.edit { context in
            let trip = SyncTrip(name: "N", destination: "from b")
            context.insert(trip)
            trip.items.append(SyncItem(title: "map"))
        }
        try b.sync()
        try a.edit { context in
            let trip = SyncTrip(name: "N", destination: "from a", nights: 4)
            context.insert(trip)
            trip.items.append(SyncItem(title: "passport"))
        }
        return (lab, a, b)
    }

    /// What every store must hold after both synced: one trip N, a's values (its insert came later, and an
    /// upsert takes the later insert's values), both items on it, b's first.
    static func expectMerged(_ lab: SyncLab<InMemoryDataStore>, _ devices: [Device]) throws {
        let expected = try SyncLab<InMemoryDataStore>.state(of: lab.server)
        let trips = expected.filter { $0.hasPrefix("trip ") && !$0.contains(" Lisbon|") }
        #expect(
            trips.count == 1 && trips.first?.hasSuffix(" N|from a|4||map,passport") == true, "\(expected)")
        #expect(expected.filter { $0.hasPrefix("item ") && $0.hasSuffix("|N") }.count == 2, "\(expected)")
        for device in devices {
            #expect(try device.state() == expected, "\(device.store.identifier)")
        }
    }

    /// a pushes its N: the server merges it into b's N, and b's map must stay on it (the merged insert's list,
    /// which never saw the map, replaced the trip's list and took the map off it).
    @Test(arguments: [true, false])
    func aMergedInsertKeepsTheFirstTripsItems(pulledBefore: Bool) throws {
        let (lab, a, b) = try Self.bothMadeN(pulledBefore: pulledBefore)
        defer { lab.remove() }
        try a.sync()
        try b.sync()
        try Self.expectMerged(lab, [a, b])
    }

    /// a pulls b's N before it pushes its own (a sync can start between the app's save and its push): the
    /// pull must keep a's unpushed trip and its passport, and the push must then merge them as above. Before,
    /// the pull's save made b's trip take a's unique name, and with it a's trip and list (the passport came
    /// off it); after both synced, the map was off the merged trip.
    @Test(arguments: [true, false])
    func aTripPulledBeforeTheDevicesOwnIsPushedKeepsBoth(pulledBefore: Bool) throws {
        let (lab, a, b) = try Self.bothMadeN(pulledBefore: pulledBefore)
        defer { lab.remove() }
        try a.engine.pull()
        let afterPull = try a.state()
        #expect(afterPull.contains { $0.hasSuffix("passport|N") }, "\(afterPull)")
        try a.sync()
        try b.sync()
        try a.sync()
        try Self.expectMerged(lab, [a, b])
    }
}

extension UniqueMergeSyncTests {
    /// a pulls, in one page, b's N made with an item both held, then that item taken off N, then deleted,
    /// while a has its own N not pushed yet. The pull merges a's N into b's, and a's unpushed list (the merged
    /// one, still naming the item) stays while the item's own side is cleared: the delete, which unlinks a
    /// model through its own side, left the list naming a model that was gone, and the pull's save failed
    /// ("the related model is not in store") at every try, so the device could no longer pull.
    @Test func aPulledDeleteOfAnItemStillOnAnUnpushedMergedListTakesItOff() throws {
        let (lab, a, b) = try ListOrderSyncTests.bothHoldLisbonWithAMap()
        defer { lab.remove() }
        try b.edit { context in
            let trip = SyncTrip(name: "N", destination: "from b")
            context.insert(trip)
            trip.items.append(try #require(try b.item("map", in: context)))
        }
        try b.sync()
        try b.edit { try #require(try b.item("map", in: $0)).trip = nil }
        try b.sync()
        try b.edit { $0.delete(try #require(try b.item("map", in: $0))) }
        try b.sync()
        try a.edit { context in
            let trip = SyncTrip(name: "N", destination: "from a")
            context.insert(trip)
            trip.items.append(SyncItem(title: "passport"))
        }
        try a.engine.pull()
        let afterPull = try a.state()
        #expect(afterPull.contains { $0.hasSuffix("passport|N") }, "\(afterPull)")
        #expect(!afterPull.contains { $0.contains("map") }, "\(afterPull)")
        try a.sync()
        try b.sync()
        let expected = try SyncLab<InMemoryDataStore>.state(of: lab.server)
        #expect(expected.contains { $0.hasSuffix(" N|from a|0||passport") }, "\(expected)")
        for device in [a, b] { #expect(try device.state() == expected, "\(device.store.identifier)") }
    }
}

extension UniqueMergeSyncTests {
    /// a pulls, in one page, b's N made with a map and then the map moved to Lisbon, while a has its own N
    /// not pushed yet. The merged N keeps a's unpushed list, which named the item from b's insert; the item's
    /// own side, which the move wrote, must decide: the pull saved the item on Lisbon's side and on both lists,
    /// and a showed it on no list (soak seed 120 of the random list scenario).
    @Test func aPulledMoveOffAMergedListLeavesTheItemOnItsNewList() throws {
        let (lab, a, b) = try Self.bothMadeN(pulledBefore: true)
        defer { lab.remove() }
        try b.edit { context in
            try #require(try b.item("map", in: context)).trip = try b.trip("Lisbon", in: context)
        }
        try b.sync()
        try a.engine.pull()
        let afterPull = try a.state()
        #expect(afterPull.contains { $0.hasSuffix(" map|Lisbon") }, "\(afterPull)")
        #expect(afterPull.contains { $0.hasSuffix(" Lisbon||0||map") }, "\(afterPull)")
        #expect(afterPull.contains { $0.hasSuffix(" N|from a|4||passport") }, "\(afterPull)")
        try a.sync()
        try b.sync()
        let expected = try SyncLab<InMemoryDataStore>.state(of: lab.server)
        #expect(expected.contains { $0.hasSuffix(" Lisbon||0||map") }, "\(expected)")
        for device in [a, b] { #expect(try device.state() == expected, "\(device.store.identifier)") }
    }
}

extension UniqueMergeSyncTests {
    /// a renames Paris to Rome, then makes a new Paris; b pulls both in one page. The pull's save must hold two
    /// trips: the store planned the new Paris's insert before the rename, so it met the old Paris, and the pull
    /// refused at every try (before the pull's inserts carried baselines, the new Paris became an update of the
    /// old one and b held one trip where a held two).
    @Test func aRenameAndANewModelTakingTheOldNameArriveInOnePull() throws {
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips)))
        defer { lab.remove() }
        let (a, b) = (try lab.device("a"), try lab.device("b"))
        try a.edit { $0.insert(SyncTrip(name: "Paris", destination: "France", nights: 2)) }
        try a.sync()
        try b.sync()
        try a.edit { context in try #require(try a.trip("Paris", in: context)).name = "Rome" }
        try a.edit { $0.insert(SyncTrip(name: "Paris", destination: "Île-de-France", nights: 4)) }
        try a.sync()
        try b.sync()
        let server = try SyncLab<InMemoryDataStore>.state(of: lab.server)
        #expect(server.filter { $0.hasPrefix("trip ") }.count == 2, "\(server)")
        #expect(try b.state() == server)
        #expect(try a.state() == server)
    }
}

extension UniqueMergeSyncTests {
    /// a makes trip N and pushes it, then deletes it (or renames it M); b, which has not pulled either, makes
    /// its own N and pushes it (the server, where N is free again, keeps b's). b's pull then reads a's insert
    /// of N a page before its delete (or rename), while b holds its own N, pushed: the page's save turned a's
    /// insert into an update of b's N, which refused, and b failed every pull from then on (600-s runs of the
    /// tags and marks fault workloads). The page must write both trips as the server holds them now. With
    /// `editedSince`, b has changed its N since it pushed it and not pushed that yet: the edit must stay.
    @Test(arguments: [1, 2, 256], [(false, false), (true, false), (false, true)])
    func anOlderInsertOfAUniqueValueTheDevicePushedSinceIsPulledPageByPage(
        pageSize: Int, variant: (renamed: Bool, editedSince: Bool)
    ) throws {
        let (renamed, editedSince) = variant
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips)))
        defer { lab.remove() }
        let (a, b) = (try lab.device("a"), try lab.device("b"))
        try a.edit { $0.insert(SyncTrip(name: "Lisbon")) }
        try a.sync()
        try b.sync()
        try a.edit { context in
            let trip = SyncTrip(name: "N", destination: "from a")
            context.insert(trip)
            trip.items.append(SyncItem(title: "map"))
        }
        try a.sync()
        try a.edit { context in
            let trip = try #require(try a.trip("N", in: context))
            if renamed { trip.name = "M" } else { context.delete(trip) }
        }
        try a.sync()
        try b.edit { context in
            let trip = SyncTrip(name: "N", destination: "from b")
            context.insert(trip)
            trip.items.append(SyncItem(title: "passport"))
        }
        _ = try b.engine.push()
        if editedSince { try b.edit { try #require(try b.trip("N", in: $0)).nights = 3 } }
        b.engine.testHistoryPageSize = pageSize
        _ = try b.engine.pull()
        #expect(try b.state().contains { $0.hasSuffix(" N|from b|\(editedSince ? 3 : 0)||passport") })
        try b.sync()
        try a.sync()
        let expected = try SyncLab<InMemoryDataStore>.state(of: lab.server)
        #expect(
            expected.contains { $0.hasSuffix(" N|from b|\(editedSince ? 3 : 0)||passport") }, "\(expected)")
        #expect(expected.contains { $0.hasSuffix(" M|from a|0||map") } == renamed, "\(expected)")
        for device in [a, b] { #expect(try device.state() == expected, "\(device.store.identifier)") }
    }
}
