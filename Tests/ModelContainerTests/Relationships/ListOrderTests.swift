import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import SampleTrips
import Testing

/// A to-many relationship is a list: the order the app gives it is the order stored, and after a save the
/// context shows what the store holds.
@Suite struct ListOrderTests {
    /// Reordering a list and saving stores the new order. The store kept the old one (the save merged the list
    /// as if another saver might have changed it), while the saving context showed the new order.
    @Test(arguments: TripStores.Kind.allCases)
    func aReorderedListIsSavedInItsNewOrder(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let context = ModelContext(container)
        let trip = try makeTrip("Lisbon", items: 4, in: context)
        trip.bucketList = trip.bucketList.reversed()
        trip.bucketList.swapAt(1, 2)
        let order = ["Lisbon 3", "Lisbon 1", "Lisbon 2", "Lisbon 0"]
        #expect(trip.bucketList.map(\.title) == order)
        try context.save()
        #expect(trip.bucketList.map(\.title) == order)

        // The JSON file store opened again, from its files; the in-memory store lives in its container.
        let reader = ModelContext(kind == .jsonFile ? try stores.container(kind) : container)
        let stored = try #require(try reader.fetch(FetchDescriptor<Trip>()).first)
        #expect(stored.bucketList.map(\.title) == order)
        #expect(stored.bucketList.allSatisfy { $0.trip === stored })

        // A reorder with an append and a removal in the same save.
        stored.bucketList.removeFirst()
        stored.bucketList.insert(BucketListItem(title: "Tram 28"), at: 1)
        try reader.save()
        let again = try #require(try ModelContext(reader.container).fetch(FetchDescriptor<Trip>()).first)
        #expect(again.bucketList.map(\.title) == ["Lisbon 1", "Tram 28", "Lisbon 2", "Lisbon 0"])
    }

    /// When another saver changed the list since this context read it, the edits merge (the other saver's
    /// append stays), the store's order stands, and the saving context takes the merged list.
    @Test func aListMergedWithAnotherSaversEditShowsTheStoredList() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(.inMemory)
        _ = try makeTrip("Lisbon", items: 3, in: ModelContext(container))
        let first = ModelContext(container)
        let second = ModelContext(container)
        let firstTrip = try #require(try first.fetch(FetchDescriptor<Trip>()).first)
        let secondTrip = try #require(try second.fetch(FetchDescriptor<Trip>()).first)
        _ = firstTrip.bucketList.count
        _ = secondTrip.bucketList.count

        firstTrip.bucketList.append(BucketListItem(title: "Castle"))
        try first.save()
        secondTrip.bucketList = secondTrip.bucketList.reversed()
        try second.save()

        let stored = try #require(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first)
        #expect(Set(stored.bucketList.map(\.title)) == ["Lisbon 0", "Lisbon 1", "Lisbon 2", "Castle"])
        #expect(secondTrip.bucketList.map(\.title) == stored.bucketList.map(\.title))
    }
}
