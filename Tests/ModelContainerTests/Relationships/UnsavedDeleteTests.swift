import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import SampleTrips
import StoreTestSupport
import Testing

/// Deleting a model the context has not saved: it is never saved, whether it was inserted or only related to a
/// tracked model since, and its delete rules apply in memory (SwiftData inserts a related model when it is
/// related, so deleting it before the save deletes it).
@Suite struct UnsavedDeleteTests {
    /// The store's trips, stays and items, counted in a new context.
    private func counts(_ container: ModelContainer) throws -> [Int] {
        let check = ModelContext(container)
        return [
            try check.fetchCount(FetchDescriptor<Trip>()),
            try check.fetchCount(FetchDescriptor<LivingAccommodation>()),
            try check.fetchCount(FetchDescriptor<BucketListItem>()),
        ]
    }

    @Test(arguments: TripStores.Kind.allCases)
    func aModelRelatedSinceItsOwnersInsertIsDeletedAndLeavesItsOwner(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let context = ModelContext(container)
        let trip = Trip(name: "Lisbon", destination: "Lisbon", startDay: 0, days: 2)
        context.insert(trip)
        let stay = LivingAccommodation(address: "1 Rua", placeName: "Stay")
        trip.livingAccommodation = stay
        let dropped = BucketListItem(title: "dropped")
        let kept = BucketListItem(title: "kept")
        trip.bucketList.append(contentsOf: [dropped, kept])

        context.delete(stay)
        context.delete(dropped)
        // Nullified in memory, as the inverse of the relationship the deleted model held.
        #expect(trip.livingAccommodation == nil)
        #expect(trip.bucketList.map(\.title) == ["kept"])
        try context.save()
        #expect(try counts(container) == [1, 0, 1], "the deleted stay and item are not saved")
        let saved = try #require(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first)
        #expect(saved.livingAccommodation == nil)
        #expect(saved.bucketList.map(\.title) == ["kept"])
    }

    @Test(arguments: TripStores.Kind.allCases)
    func deletingAnUnsavedOwnerCascadesToWhatItHolds(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let setup = ModelContext(container)
        let savedStay = LivingAccommodation(address: "2 Rua", placeName: "Saved stay")
        setup.insert(savedStay)
        try setup.save()

        let context = ModelContext(container)
        // A new trip holding a saved stay (`.cascade`) and new items inserted on their own (`.cascade`).
        let trip = Trip(name: "Lisbon", destination: "Lisbon", startDay: 0, days: 2)
        context.insert(trip)
        let stay = try #require(try context.fetch(FetchDescriptor<LivingAccommodation>()).first)
        trip.livingAccommodation = stay
        let item = BucketListItem(title: "item")
        context.insert(item)
        trip.bucketList.append(item)

        context.delete(trip)
        #expect(context.deletedModelsArray.count == 1, "the saved stay is marked for deletion")
        #expect(context.insertedModelsArray.isEmpty, "the trip and its item are dropped")
        try context.save()
        #expect(try counts(container) == [0, 0, 0])
    }

    @Test(arguments: TripStores.Kind.allCases)
    func deletingAFreeStandingModelChangesNothing(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let context = ModelContext(container)
        let trip = Trip(name: "Lisbon", destination: "Lisbon", startDay: 0, days: 2)
        context.insert(trip)
        // Never inserted nor related to anything the context tracks.
        context.delete(BucketListItem(title: "nowhere"))
        #expect(context.insertedModelsArray.count == 1)
        try context.save()
        #expect(try counts(container) == [1, 0, 0])
    }

    @Test func cascadesBothWaysEndAndOtherRulesEmptyTheRelationship() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(.inMemory, [Ping.self, Shelf.self], name: "rules")
        let context = ModelContext(container)
        // `.cascade` on both sides: the delete comes back to the ping and stops there.
        let ping = Ping()
        context.insert(ping)
        let pong = Pong()
        ping.pong = pong
        #expect(pong.ping === ping)
        context.delete(ping)
        #expect(ping.pong == nil && pong.ping == nil)
        #expect(context.insertedModelsArray.isEmpty)
        // `.deny` cannot deny anything stored: the new shelf goes, and its book keeps no shelf.
        let shelf = Shelf(label: "new")
        context.insert(shelf)
        let book = Book(title: "kept")
        shelf.books.append(book)
        context.delete(shelf)
        #expect(book.shelf == nil)
        #expect(context.insertedModelsArray.map { ($0 as? Book)?.title } == ["kept"])
        try context.save()
        let check = ModelContext(container)
        #expect(try check.fetchCount(FetchDescriptor<Ping>()) == 0)
        #expect(try check.fetchCount(FetchDescriptor<Pong>()) == 0)
        #expect(try check.fetchCount(FetchDescriptor<Shelf>()) == 0)
        #expect(try check.fetch(FetchDescriptor<Book>()).map(\.title) == ["kept"])
    }

    @Test(arguments: TripStores.Kind.allCases)
    func aModelRelatedToATrackedOneIsAPendingInsertAtOnce(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        try makeTrip("Oslo", items: 1, in: ModelContext(container))
        let context = ModelContext(container)
        let saved = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        saved.bucketList.append(BucketListItem(title: "new"))
        let trip = Trip(name: "Lisbon", destination: "Lisbon", startDay: 0, days: 2)
        context.insert(trip)
        trip.livingAccommodation = LivingAccommodation(address: "1 Rua", placeName: "Stay in Lisbon")
        // As in SwiftData, which inserts a model when it is related: fetches with pending changes see them.
        #expect(
            Set(try context.fetch(FetchDescriptor<BucketListItem>()).map(\.title)) == ["Oslo 0", "new"])
        #expect(try context.fetchCount(FetchDescriptor<LivingAccommodation>()) == 2)
        #expect(context.insertedModelsArray.count == 3, "the trip, its stay and the new item")
        var savedOnly = FetchDescriptor<BucketListItem>()
        savedOnly.includePendingChanges = false
        #expect(try context.fetchCount(savedOnly) == 1)
    }

    @Test func aRelationshipWithoutAnInverseToADeletedNewModelIsRefusedSayingSo() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(.inMemory, [TaggedPost.self], name: "posts")
        let context = ModelContext(container)
        let post = TaggedPost()
        context.insert(post)
        let tag = PostTag()
        post.tags.append(tag)
        // Nothing leads from the tag back to the post: deleting it cannot empty the post's list.
        context.delete(tag)
        #expect(post.tags.count == 1)
        let error = #expect(throws: DataStoreError.self) { try context.save() }
        #expect(error?.code == .invalidRelationship)
        #expect(error?.entity == "TaggedPost" && error?.attribute == "tags")
        #expect(error?.identifier == tag.persistentModelID)
        #expect(error?.reason?.contains("deleted") == true, "\(String(describing: error))")
        #expect(
            try ModelContext(container).fetchCount(FetchDescriptor<TaggedPost>()) == 0, "nothing was saved")
    }
}

/// A post with tags, and tags that know nothing of posts: a relationship without an inverse.
final class TaggedPost: PersistentModel {
    static let schemaAttributes: [ModelAttribute<TaggedPost>] = [.relationship("tags", \.tags)]
    var persistentModelID = PersistentIdentifier()
    @Relationship var tags: [PostTag] = []
    init() {}
}

/// A tag (see `TaggedPost`).
final class PostTag: PersistentModel {
    static let schemaAttributes: [ModelAttribute<PostTag>] = [.attribute("label", \.label)]
    var persistentModelID = PersistentIdentifier()
    var label = ""
    init() {}

    /// A new model appended to a saved trip's list and taken off it again before the save: SwiftData inserts a
    /// model when it is related, so the save inserts it, on no list.
    @Test(arguments: TripStores.Kind.allCases)
    func aNewModelRelatedAndThenUnrelatedBeforeTheSaveIsSavedOnNoList(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let setup = ModelContext(container)
        setup.insert(Trip(name: "Lisbon", destination: "Lisbon", startDay: 0, days: 2))
        try setup.save()

        let context = ModelContext(container)
        let trip = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        let passport = BucketListItem(title: "Passport")
        trip.bucketList.append(passport)
        trip.bucketList = []
        // A pending insert, as in SwiftData: the context has changes and a fetch finds it.
        #expect(context.hasChanges)
        #expect(try context.fetch(FetchDescriptor<BucketListItem>()).map(\.title) == ["Passport"])
        try context.save()
        #expect(!context.hasChanges)
        let items = try ModelContext(container).fetch(FetchDescriptor<BucketListItem>())
        #expect(items.map(\.title) == ["Passport"])
        #expect(items.first?.trip == nil)
    }

    /// The same for models with plain stored properties, which do not report their changes (the sync tests'
    /// trips): their relationships still report the new models they let go of. The list fault workload found
    /// it: an item appended to a trip and taken off it again in one save was never saved.
    @Test func aNewModelThatAPlainModelLetGoOfIsSavedToo() throws {
        let container = try ModelContainer(
            for: [SyncTrip.self, SyncItem.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "trips"))])
        let setup = ModelContext(container)
        setup.insert(SyncTrip(name: "Lisbon"))
        setup.insert(SyncTrip(name: "Porto"))
        try setup.save()

        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<SyncTrip>(sortBy: [SortDescriptor(\.name)]))
        try #require(trips.count == 2)
        let trip = trips[0]
        trip.items.append(SyncItem(title: "Passport"))
        trip.items = []
        // A fetched trip whose list was read before, letting go of a new item through its inverse: the item
        // put on the trip and taken off it again from its own side.
        let porto = trips[1]
        #expect(porto.items.isEmpty)
        let bag = SyncItem(title: "Bag")
        bag.trip = porto
        bag.trip = nil
        // A new trip too, inserted and not saved yet: its list lets go of a new item the same way.
        let oslo = SyncTrip(name: "Oslo")
        context.insert(oslo)
        oslo.items.append(SyncItem(title: "Map"))
        oslo.items.removeAll()
        try context.save()
        let items = try ModelContext(container).fetch(
            FetchDescriptor<SyncItem>(sortBy: [SortDescriptor(\.title)]))
        #expect(items.map(\.title) == ["Bag", "Map", "Passport"])
        #expect(items.allSatisfy { $0.trip == nil })
    }
}
