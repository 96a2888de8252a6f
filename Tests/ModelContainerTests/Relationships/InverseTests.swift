import DataStoreCore
import DataStoreKit
import DataStoreModels
import Foundation
import InMemoryStorage
import SampleTrips
import StoreTestSupport
import Testing

/// Both sides of a relationship stay in step: in memory at once, in the store after a save.
@Suite struct InverseTests {
    @Test(arguments: TripStores.Kind.allCases)
    func appendingToTheListSetsTheItemsTripBeforeAndAfterSaveAndReopen(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        var container: ModelContainer? = try stores.container(kind)
        let context = ModelContext(try #require(container))
        let trip = Trip(name: "Lisbon", destination: "Lisbon", startDay: 0, days: 3)
        context.insert(trip)
        let item = BucketListItem(title: "Tram 28")
        trip.bucketList.append(item)
        #expect(item.trip === trip)
        try context.save()
        #expect(item.trip === trip)
        #expect(trip.bucketList.first === item)
        #expect(context.insertedModelsArray.isEmpty)  // the item was inserted with its trip

        // A fresh context of the same store: one instance per identifier, both sides linked.
        let again = ModelContext(try #require(container))
        let fetched = try #require(try again.fetch(FetchDescriptor<Trip>()).first)
        let fetchedItem = try #require(fetched.bucketList.first)
        #expect(fetchedItem.trip === fetched)
        #expect(fetchedItem.title == "Tram 28")

        guard kind == .jsonFile else { return }
        container = nil
        let reopened = ModelContext(try stores.container(kind))
        let items = try reopened.fetch(FetchDescriptor<BucketListItem>())
        #expect(items.map(\.title) == ["Tram 28"])
        #expect(items.first?.trip?.name == "Lisbon")
        #expect(items.first?.trip?.bucketList.first === items.first)
    }

    @Test func buildingAndMovingAListOneModelAtATimeComparesOnlyThoseModels() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let context = ModelContext(try stores.container(.inMemory))
        let trip = Trip(name: "Lisbon", destination: "Lisbon", startDay: 0, days: 3)
        context.insert(trip)
        let items = (0..<300).map { BucketListItem(title: "Item \($0)") }
        let examined = ExaminedCount()
        InverseMaintenance.$examined.withValue(examined) {
            for item in items { trip.bucketList.append(item) }
        }
        // Each append: the appended item on the list's side, and the list's trip on the item's. Comparing the
        // whole old list with the new one made it 90,000 (quadratic in the list).
        // At least each appended item: a count of zero would mean the counter no longer sees the upkeep.
        #expect((items.count...2 * items.count).contains(examined.count), "\(examined.count) compared")
        #expect(trip.bucketList.count == 300)
        #expect(items.allSatisfy { $0.trip === trip })

        // Moving them to another trip one at a time, from the front of the list: each move compares the two
        // trips and the one item (it compared the rest of the list, twice, at each move).
        let other = Trip(name: "Oslo", destination: "Oslo", startDay: 5, days: 2)
        context.insert(other)
        let moves = ExaminedCount()
        InverseMaintenance.$examined.withValue(moves) {
            for item in items { item.trip = other }
        }
        #expect((items.count...4 * items.count).contains(moves.count), "\(moves.count) compared")
        #expect(trip.bucketList.isEmpty)
        #expect(other.bucketList.count == 300 && items.allSatisfy { $0.trip === other })
        trip.bucketList = other.bucketList
        #expect(other.bucketList.isEmpty && items.allSatisfy { $0.trip === trip })

        // Edits that are not appends still move exactly the models they change.
        trip.bucketList.removeLast()
        #expect(items[299].trip == nil)
        trip.bucketList.insert(items[299], at: 0)
        #expect(items[299].trip === trip)
        trip.bucketList.remove(at: 150)
        #expect(items[149].trip == nil && items[150].trip === trip)
        trip.bucketList = Array(trip.bucketList.prefix(100)) + [items[149]]
        #expect(items[149].trip === trip)
        #expect(items[200].trip == nil)
        #expect(Set(trip.bucketList.map(ObjectIdentifier.init)).count == trip.bucketList.count)
        #expect(trip.bucketList.allSatisfy { $0.trip === trip })
        try context.save()
        let stored = try ModelContext(context.container).fetch(FetchDescriptor<BucketListItem>())
        #expect(stored.filter { $0.trip != nil }.count == 101)
    }

    /// Setting the to-one side adds the model to the owner's list where the list lies: filing a thousand items
    /// under a trip from the items' side copied the trip's list at every item (a new buffer each time), which
    /// made it quadratic in the list with a copy's large constant.
    @Test func settingTheToOneSideEditsTheOwnersListInPlace() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let context = ModelContext(try stores.container(.inMemory))
        let trip = try makeTrip("Lisbon", items: 3, in: context)
        let items = (0..<1_000).map { BucketListItem(title: "Item \($0)") }
        func buffer() -> UInt { trip.bucketList.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        var moved = 0
        var last = buffer()
        for item in items {
            item.trip = trip
            let now = buffer()
            if now != last { moved += 1 }
            last = now
        }
        // Growing by doubling moves the buffer a dozen times or so for a thousand items; copying, every time.
        #expect(moved <= 40, "the list's buffer moved \(moved) times")
        #expect(trip.bucketList.count == 1_003)
        #expect(trip.bucketList.suffix(1_000).map(ObjectIdentifier.init) == items.map(ObjectIdentifier.init))

        // Moving them away from the front, one by one, removes each where it lies too.
        let other = try makeTrip("Oslo", items: 0, in: context)
        for item in items.prefix(500) { item.trip = other }
        #expect(trip.bucketList.count == 503)
        #expect(other.bucketList.map(ObjectIdentifier.init) == items.prefix(500).map(ObjectIdentifier.init))
        try context.save()
        let reader = ModelContext(context.container)
        let stored = try reader.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(stored.map { $0.bucketList.count } == [503, 500])
        #expect(stored.allSatisfy { trip in trip.bucketList.allSatisfy { $0.trip === trip } })
    }

    /// A save that files one item into a saved list of a thousand looks at that item, not at the list: the
    /// store's inverse upkeep hashed the whole old and new list of the trip (2,000 identifiers) to find it.
    @Test func savingOneItemFiledIntoALongListHashesThatItem() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(.inMemory)
        let context = ModelContext(container)
        let trip = try makeTrip("Lisbon", items: 1_000, in: context)
        let item = BucketListItem(title: "Castle")
        item.trip = trip
        let examined = ExaminedCount()
        try InverseRelationships.$examined.withValue(examined) { try context.save() }
        // The item's trip, and the trip's new item; at least those, or the counter no longer sees the upkeep.
        #expect((2...20).contains(examined.count), "\(examined.count) identifiers hashed")

        // Taking an item out of the middle checks the rest of the list once (it may name a model twice).
        let moved = trip.bucketList[500]
        let other = try makeTrip("Oslo", items: 0, in: context)
        moved.trip = other
        let removal = ExaminedCount()
        try InverseRelationships.$examined.withValue(removal) { try context.save() }
        #expect((2...2_100).contains(removal.count), "\(removal.count) identifiers hashed")
        let stored = try ModelContext(container).fetch(
            FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(stored.map { $0.bucketList.count } == [1_000, 1])
        #expect(stored[0].bucketList.last?.title == "Castle")
        #expect(stored[1].bucketList.first?.title == moved.title)
    }

    /// A trip a rollback discarded is related to nothing, its list a fault that reads as empty without
    /// loading: an item set on it afterwards is in its list all the same, as on a trip never inserted.
    @Test func aDiscardedOwnerGainsTheModelsSetOnTheirSide() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let context = ModelContext(try stores.container(.inMemory))
        let trip = Trip(name: "Lisbon", destination: "Lisbon", startDay: 0, days: 3)
        context.insert(trip)
        trip.bucketList.append(BucketListItem(title: "Tram 28"))
        context.rollback()
        #expect(trip.bucketList.isEmpty)
        let item = BucketListItem(title: "Castle")
        item.trip = trip
        #expect(trip.bucketList.map(ObjectIdentifier.init) == [ObjectIdentifier(item)])
        let later = BucketListItem(title: "Museum")
        later.trip = trip
        item.trip = nil
        #expect(trip.bucketList.map(\.title) == ["Museum"])
    }

    @Test func settingEitherSideMovesTheModelBetweenOwners() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(.inMemory)
        let context = ModelContext(container)
        let lisbon = try makeTrip("Lisbon", items: 2, in: context)
        let oslo = try makeTrip("Oslo", items: 0, in: context)
        let moved = lisbon.bucketList[0]

        moved.trip = oslo  // the to-one side
        #expect(lisbon.bucketList.map(\.title) == ["Lisbon 1"])
        #expect(oslo.bucketList.first === moved)
        let stay = try #require(lisbon.livingAccommodation)
        oslo.livingAccommodation = stay  // a to-one with a to-one inverse: Lisbon loses its stay
        #expect(stay.trip === oslo)
        #expect(lisbon.livingAccommodation == nil)
        try context.save()

        let fresh = ModelContext(container)
        let trips = try fresh.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map { $0.bucketList.map(\.title) } == [["Lisbon 1"], ["Lisbon 0"]])
        #expect(trips.map { $0.livingAccommodation?.placeName } == [nil, "Stay in Lisbon"])
        #expect(trips[1].livingAccommodation?.trip === trips[1])
        // Oslo's own stay lost its trip: it points nowhere now, on both sides.
        let orphans = try fresh.fetch(FetchDescriptor<LivingAccommodation>()).filter { $0.trip == nil }
        #expect(orphans.map(\.placeName) == ["Stay in Oslo"])
    }

    @Test func aFetchOfManyTripsLoadsTheirStaysInOneStoreRequest() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(.inMemory)
        let setup = ModelContext(container)
        for index in 0..<200 {
            let trip = Trip(name: "T\(index)", destination: "D\(index)", startDay: index, days: 1)
            setup.insert(trip)
            trip.livingAccommodation = LivingAccommodation(address: "\(index)", placeName: "P\(index)")
        }
        try setup.save()
        let store = try #require(container.store("trips", as: InMemoryDataStore.self))

        let context = ModelContext(container)
        let before = store.fetchRequests
        let trips = try context.fetch(FetchDescriptor<Trip>())
        let names = trips.compactMap { $0.livingAccommodation?.placeName }
        #expect(names.count == 200)
        #expect(Set(names).count == 200)
        // One request for the trips, one for all their stays; reading the inverse back needs none.
        #expect(store.fetchRequests - before == 2)
        #expect(trips.allSatisfy { $0.livingAccommodation?.trip === $0 })
        #expect(store.fetchRequests - before == 2)

        // Prefetching loads them with the fetch.
        var descriptor = FetchDescriptor<Trip>()
        descriptor.relationshipKeyPathsForPrefetching = [\.livingAccommodation]
        let prefetching = ModelContext(container)
        let start = store.fetchRequests
        _ = try prefetching.fetch(descriptor)
        #expect(store.fetchRequests - start == 2)
    }
}

/// An insert that becomes an upsert of a model holding the same unique value takes its relationships along.
@Suite struct UpsertRelationshipTests {
    /// One save renames Lisbon to Porto and makes a new Lisbon: the new trip takes the name Lisbon gave up. The
    /// store planned the insert before the rename, so the new Lisbon became an update of the old one (an
    /// upsert), which the rename then moved to Porto: one trip where there should be two. A sync's pull that
    /// applies another device's rename and new trip in one save met the same.
    @Test(arguments: [TripStores.Kind.inMemory, .jsonFile])
    func aNewModelTakesTheUniqueValueARenameInTheSameSaveGaveUp(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let first = ModelContext(container)
        let old = try makeTrip("Lisbon", items: 1, in: first)
        old.name = "Porto"
        let new = Trip(name: "Lisbon", destination: "Lisboa", startDay: 0, days: 3)
        first.insert(new)
        try first.save()

        let fresh = ModelContext(container)
        let trips = try fresh.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Lisbon", "Porto"])
        #expect(trips.map(\.persistentModelID) == [new.persistentModelID, old.persistentModelID])
        #expect(trips.last?.bucketList.count == 1 && trips.first?.bucketList.isEmpty == true)
    }

    @Test func aNewItemOfAnUpsertedTripRelatesToTheHolder() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(.inMemory)
        let first = ModelContext(container)
        let original = try makeTrip("Lisbon", items: 0, in: first)

        let second = ModelContext(container)
        let duplicate = Trip(name: "Lisbon", destination: "Lisboa", startDay: 0, days: 3)
        second.insert(duplicate)
        duplicate.bucketList.append(BucketListItem(title: "Tram 28"))
        try second.save()

        let fresh = ModelContext(container)
        let trips = try fresh.fetch(FetchDescriptor<Trip>())
        #expect(trips.map(\.persistentModelID) == [original.persistentModelID])
        #expect(trips.first?.destination == "Lisboa")
        let item = try #require(try fresh.fetch(FetchDescriptor<BucketListItem>()).first)
        #expect(item.trip === trips.first)
        #expect(trips.first?.bucketList.map(\.title) == ["Tram 28"])
    }

    /// A context that never saw Lisbon (another context, process or device made it) makes its own Lisbon with an
    /// item: the upsert adds the item to Lisbon's list. It replaced the list, as it replaces the other
    /// attributes: the items already on Lisbon were taken off it and belonged to no trip. On a synced device
    /// this happened when a pull brought another device's Lisbon just before the app saved its own, and the
    /// push then took the other device's items off Lisbon everywhere (the sync fault test's lists workload).
    @Test(arguments: [TripStores.Kind.inMemory, .jsonFile])
    func anUpsertAddsToTheHoldersListInsteadOfReplacingIt(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let first = ModelContext(container)
        let original = try makeTrip("Lisbon", items: 2, in: first)
        let held = original.bucketList.map(\.title)

        let second = ModelContext(container)
        let duplicate = Trip(name: "Lisbon", destination: "Lisboa", startDay: 0, days: 3)
        second.insert(duplicate)
        duplicate.bucketList.append(BucketListItem(title: "Tram 28"))
        try second.save()
        #expect(duplicate.bucketList.map(\.title) == held + ["Tram 28"], "the saving context's view")

        let fresh = ModelContext(container)
        let trips = try fresh.fetch(FetchDescriptor<Trip>())
        #expect(trips.map(\.persistentModelID) == [original.persistentModelID])
        #expect(trips.first?.destination == "Lisboa")
        #expect(trips.first?.bucketList.map(\.title) == held + ["Tram 28"])
        let items = try fresh.fetch(FetchDescriptor<BucketListItem>())
        #expect(items.count == 3 && items.allSatisfy { $0.trip === trips.first }, "\(items.map(\.title))")
    }
}

extension InverseTests {
    /// One save names an item on two trips' lists, its own side naming one of them (a sync's pull that merges
    /// a device's trip while another edit moved the item). The store must still end with both sides agreeing:
    /// the item on the list of the trip its side names, and on no other. It took the item off the first list
    /// when it linked it to the second, then put its side back on the first without restoring the list: the
    /// item named a trip whose list did not hold it, and showed on no list.
    @Test func aSaveNamingAnItemOnTwoListsEndsWithBothSidesAgreeing() throws {
        let store = try InMemoryDataStore(.init(name: "store", schema: SyncSchemas.trips))
        func id(_ entity: String, _ key: String) -> PersistentIdentifier {
            PersistentIdentifier(storeIdentifier: store.identifier, entityName: entity, primaryKey: key)
        }
        func trip(_ key: String, _ items: [String]) -> DataStoreSnapshot {
            DataStoreSnapshot(
                persistentIdentifier: id(SyncTrip.entityName, key),
                values: [
                    "name": .string(key), "destination": .string(""), "nights": .integer(0),
                    "notes": .string(""),
                    "items": .array(items.map { .identifier(id(SyncItem.entityName, $0)) }),
                ])
        }
        func item(_ key: String, on owner: String) -> DataStoreSnapshot {
            DataStoreSnapshot(
                persistentIdentifier: id(SyncItem.entityName, key),
                values: ["title": .string(key), "trip": .identifier(id(SyncTrip.entityName, owner))])
        }
        _ = try store.save(DataStoreSaveChangesRequest(inserted: [trip("Lisbon", [])]))
        _ = try store.save(
            DataStoreSaveChangesRequest(
                inserted: [
                    trip("N", ["tickets", "passport"]), item("tickets", on: "Lisbon"),
                    item("passport", on: "N"),
                ],
                updated: [
                    DataStoreSnapshot(
                        persistentIdentifier: id(SyncTrip.entityName, "Lisbon"),
                        values: ["items": .array([.identifier(id(SyncItem.entityName, "tickets"))])])
                ]))
        let trips = try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<SyncTrip>())).snapshots
        let items = try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<SyncItem>())).snapshots
        var listed: [PersistentIdentifier: [PersistentIdentifier]] = [:]
        for trip in trips {
            for member in trip[attribute: "items"].relatedIdentifiers ?? [] {
                listed[member, default: []].append(trip.persistentIdentifier)
            }
        }
        for item in items {
            let side = item[attribute: "trip"].relatedIdentifiers ?? []
            #expect(
                listed[item.persistentIdentifier] ?? [] == side, "\(item.persistentIdentifier.primaryKey)")
        }
    }
}
