import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import SampleTrips
import Synchronization
import Testing

/// A relationship's loaded models live as long as something holds them, and no longer: reading a relationship
/// keeps nothing alive by itself, whether the context that fetched the model is still there or not, and a
/// store evaluating a predicate that follows a relationship keeps none of the models it made to evaluate it.
@Suite struct RelationshipLifetimeTests {
    /// The trips a context fetched, returned after the context itself is gone (nothing else holds it), as
    /// `try ModelContext(container).fetch(…)` leaves them.
    private func tripsOfAContextThatIsGone(_ container: ModelContainer) throws -> [Trip] {
        weak var gone: ModelContext?
        let trips = try {
            let context = ModelContext(container)
            gone = context
            return try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        }()
        #expect(gone == nil, "the fetching context is gone")
        return trips
    }

    @Test(arguments: TripStores.Kind.allCases)
    func modelsLoadedAfterTheirContextIsGoneAreFreedWithTheirOwners(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let setup = ModelContext(container)
        try makeTrip("Lisbon", items: 2, in: setup)
        try makeTrip("Oslo", items: 1, in: setup)

        weak var trip: Trip?
        weak var stay: LivingAccommodation?
        weak var item: BucketListItem?
        do {
            let trips = try tripsOfAContextThatIsGone(container)
            // Relationships still read after the context is gone (another context loads them)...
            #expect(trips.map { $0.livingAccommodation?.placeName } == ["Stay in Lisbon", "Stay in Oslo"])
            #expect(trips.map(\.bucketList.count) == [2, 1])
            // ... and so do the loaded models' own relationships (in the context that loaded them, which does not
            // track the trips the gone one fetched: another instance of the same trip).
            #expect(trips[0].livingAccommodation?.trip?.name == "Lisbon")
            trip = trips[0]
            stay = trips[0].livingAccommodation
            item = trips[0].bucketList.first
            #expect(trip != nil && stay != nil && item != nil)
        }
        // Nothing holds the trips any more: neither they nor what their relationships loaded stay alive.
        #expect(trip == nil, "the trip is freed")
        #expect(stay == nil, "the stay its relationship loaded is freed")
        #expect(item == nil, "the item its relationship loaded is freed")
    }

    @Test(arguments: TripStores.Kind.allCases)
    func modelsLoadedThroughALiveContextAreFreedWithIt(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        try makeTrip("Lisbon", items: 2, in: ModelContext(container))

        weak var context: ModelContext?
        weak var stay: LivingAccommodation?
        do {
            let live = ModelContext(container)
            context = live
            let trip = try #require(try live.fetch(FetchDescriptor<Trip>()).first)
            stay = trip.livingAccommodation
            #expect(stay?.trip === trip)
            #expect(trip.bucketList.allSatisfy { $0.trip === trip })
        }
        #expect(context == nil)
        #expect(stay == nil)
    }

    @Test(arguments: TripStores.Kind.allCases)
    func deletedModelsAreFreedOnceNobodyHoldsThem(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let context = ModelContext(container)
        weak var trip: Trip?
        weak var stay: LivingAccommodation?
        weak var item: BucketListItem?
        do {
            // Inserted together, each side of each relationship holds the other.
            let made = try makeTrip("Lisbon", items: 2, in: context)
            trip = made
            stay = made.livingAccommodation
            item = made.bucketList.first
            #expect(stay?.trip === made && item?.trip === made)
            context.delete(made)
            try context.save()  // the stay and the items go by `.cascade`
        }
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
        // The context forgot them, and nothing else holds them: the live context keeps none of them alive.
        #expect(trip == nil, "the deleted trip is freed")
        #expect(stay == nil, "the stay its cascade deleted is freed")
        #expect(item == nil, "an item its cascade deleted is freed")
    }

    /// Inserts a trip with its stay and two items without saving them: each side of each relationship holds
    /// the other.
    private func insertUnsavedTrip(
        _ name: String, in context: ModelContext
    ) -> (trip: Trip, stay: LivingAccommodation, item: BucketListItem) {
        let trip = Trip(name: name, destination: name, startDay: 0, days: 3)
        context.insert(trip)
        let stay = LivingAccommodation(address: "1 \(name) St", placeName: "Stay in \(name)")
        trip.livingAccommodation = stay
        let item = BucketListItem(title: "\(name) 0")
        trip.bucketList.append(item)
        trip.bucketList.append(BucketListItem(title: "\(name) 1"))
        return (trip, stay, item)
    }

    @Test(arguments: TripStores.Kind.allCases)
    func unsavedModelsAreFreedWithTheContextThatDiscardsThem(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        weak var context: ModelContext?
        weak var trip: Trip?
        weak var stay: LivingAccommodation?
        weak var item: BucketListItem?
        do {
            // How a request handler that fails before its save leaves them.
            let live = ModelContext(container)
            context = live
            let made = insertUnsavedTrip("Lisbon", in: live)
            trip = made.trip
            stay = made.stay
            item = made.item
            #expect(made.stay.trip === made.trip && made.item.trip === made.trip)
            #expect(live.hasChanges)
        }
        #expect(context == nil)
        #expect(trip == nil, "the unsaved trip is freed with its context")
        #expect(stay == nil, "the unsaved stay is freed with its context")
        #expect(item == nil, "an unsaved item is freed with its context")
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 0, "nothing was saved")
    }

    @Test(arguments: TripStores.Kind.allCases)
    func unsavedModelsARollbackDiscardsAreFreed(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let context = ModelContext(container)
        let saved = try makeTrip("Oslo", items: 1, in: context)
        weak var trip: Trip?
        weak var stay: LivingAccommodation?
        weak var item: BucketListItem?
        weak var movedItem: BucketListItem?
        do {
            let made = insertUnsavedTrip("Lisbon", in: context)
            trip = made.trip
            stay = made.stay
            item = made.item
            // A new item on a saved trip: the saved trip's list holds it, and it holds the trip back.
            let extra = BucketListItem(title: "Oslo 1")
            saved.bucketList.append(extra)
            movedItem = extra
            context.rollback()
        }
        #expect(trip == nil, "the discarded trip is freed")
        #expect(stay == nil, "the discarded stay is freed")
        #expect(item == nil, "a discarded item is freed")
        #expect(movedItem == nil, "the item discarded from a saved trip's list is freed")
        // The saved trip reads what the store holds.
        #expect(saved.bucketList.map(\.title) == ["Oslo 0"])
        #expect(saved.livingAccommodation?.placeName == "Stay in Oslo")
    }

    @Test(arguments: TripStores.Kind.allCases)
    func modelsDeletedButNotSavedAreFreedWithTheirContext(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        try makeTrip("Lisbon", items: 1, in: ModelContext(container))
        weak var trip: Trip?
        weak var stay: LivingAccommodation?
        do {
            let live = ModelContext(container)
            let fetched = try #require(try live.fetch(FetchDescriptor<Trip>()).first)
            let loaded = try #require(fetched.livingAccommodation)
            #expect(loaded.trip === fetched)
            trip = fetched
            stay = loaded
            // Both marked for deletion, never saved: the context drops the deletes with itself.
            live.delete(loaded)
            live.delete(fetched)
        }
        #expect(trip == nil, "the trip whose delete was never saved is freed")
        #expect(stay == nil, "the stay whose delete was never saved is freed")
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1, "nothing was deleted")
    }

    @Test(arguments: TripStores.Kind.allCases)
    func aDiscardedInsertYouStillHoldIsRelatedToNothing(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let rolledBack = ModelContext(container)
        let saved = try makeTrip("Lima", items: 0, in: rolledBack)
        let discarded = insertUnsavedTrip("Lisbon", in: rolledBack).trip
        // New models related to a saved trip: they point at a model the store holds.
        let newStay = LivingAccommodation(address: "2 Calle", placeName: "New stay")
        saved.livingAccommodation = newStay
        let newItem = BucketListItem(title: "Lima new")
        saved.bucketList.append(newItem)
        #expect(rolledBack.insertedModelsArray.count == 6)
        rolledBack.rollback()
        let dropped = insertUnsavedTrip("Oslo", in: ModelContext(container)).trip
        for trip in [discarded, dropped] {
            #expect(["Lisbon", "Oslo"].contains(trip.name), "its attributes stay")
            #expect(trip.livingAccommodation == nil, "no stay of \(trip.name)")
            #expect(trip.bucketList.isEmpty, "no item of \(trip.name)")
        }
        #expect(newStay.trip == nil, "the discarded stay does not read the saved trip back")
        #expect(newItem.trip == nil, "nor does the discarded item")
        #expect(saved.livingAccommodation?.placeName == "Stay in Lima")
        #expect(saved.bucketList.isEmpty)
        #expect(!rolledBack.hasChanges)
    }

    @Test func aPredicateThatFollowsARelationshipKeepsNoModelAlive() throws {
        let container = try ModelContainer(
            for: [CountedOwner.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "lifetime"))])
        do {
            let context = ModelContext(container)
            for index in 0..<5 {
                let owner = CountedOwner()
                owner.name = "owner \(index)"
                context.insert(owner)
                let part = CountedPart()
                part.label = index.isMultiple(of: 2) ? "even" : "odd"
                owner.part = part
            }
            try context.save()
        }
        #expect(CountedPart.alive.load(ordering: .relaxed) == 0, "the setup's parts are gone")
        do {
            // Not a comparison of attributes: the store evaluates it on models it makes, following `part`.
            let even = #Predicate<CountedOwner> { $0.part?.label == "even" }
            let matches = try ModelContext(container).fetchCount(FetchDescriptor(predicate: even))
            #expect(matches == 3)
        }
        #expect(CountedOwner.alive.load(ordering: .relaxed) == 0, "no owner made for the predicate is alive")
        #expect(CountedPart.alive.load(ordering: .relaxed) == 0, "no part made for the predicate is alive")
    }
}

/// An owner whose live instances are counted; only `aPredicateThatFollowsARelationshipKeepsNoModelAlive` uses
/// it, so that no other test changes the count.
final class CountedOwner: PersistentModel {
    static let alive = Atomic<Int>(0)
    static let schemaAttributes: [ModelAttribute<CountedOwner>] = [
        .attribute("name", \.name),
        .relationship("part", \.part, deleteRule: .cascade, inverse: \CountedPart.owner),
    ]
    var persistentModelID = PersistentIdentifier()
    var name = ""
    @Relationship var part: CountedPart?
    init() { Self.alive.add(1, ordering: .relaxed) }
    deinit { Self.alive.subtract(1, ordering: .relaxed) }
}

/// The counted owner's part.
final class CountedPart: PersistentModel {
    static let alive = Atomic<Int>(0)
    static let schemaAttributes: [ModelAttribute<CountedPart>] = [
        .attribute("label", \.label), .relationship("owner", \.owner),
    ]
    var persistentModelID = PersistentIdentifier()
    var label = ""
    @Relationship var owner: CountedOwner?
    init() { Self.alive.add(1, ordering: .relaxed) }
    deinit { Self.alive.subtract(1, ordering: .relaxed) }
}
