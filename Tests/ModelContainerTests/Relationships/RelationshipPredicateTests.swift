import DataStoreCore
import DataStoreModels
import Foundation
import SampleTrips
import Testing

/// Predicates and sorts that follow relationships return what a brute-force Swift filter over all models
/// returns, over random data.
@Suite struct RelationshipPredicateTests {
    static let places = ["Sol", "Pine", "Dune", "Frost"]

    /// Random trips, some with a stay, each with 0–3 items, some reserved.
    func populate(_ context: ModelContext, seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        for index in 0..<Int.random(in: 5...15, using: &random) {
            let trip = Trip(name: "T\(index)", destination: "D\(index % 3)", startDay: index, days: 1)
            context.insert(trip)
            if Bool.random(using: &random) {
                trip.livingAccommodation = LivingAccommodation(
                    address: "\(index)", placeName: Self.places.randomElement(using: &random)!)
            }
            for item in 0..<Int.random(in: 0...3, using: &random) {
                trip.bucketList.append(
                    BucketListItem(title: "I\(item)", hasReservation: Bool.random(using: &random)))
            }
        }
        try context.save()
    }

    @Test(arguments: TripStores.Kind.allCases)
    func predicatesThroughRelationshipsMatchABruteForceFilter(_ kind: TripStores.Kind) throws {
        for seed in UInt64(1)...100 {
            let stores = try TripStores()
            defer { stores.remove() }
            let container = try stores.container(kind)
            try populate(ModelContext(container), seed: seed)
            let context = ModelContext(container)
            let all = try context.fetch(FetchDescriptor<Trip>())
            var random = SplitMix64(seed: seed &* 31)
            let place = Self.places.randomElement(using: &random)!

            // The seeds' to-many predicate.
            let unreserved = #Predicate<Trip> { trip in
                trip.bucketList.filter { $0.hasReservation == false }.count > 0
            }
            let expectedUnreserved = Set(
                all.filter { $0.bucketList.contains { !$0.hasReservation } }.map(\.name))
            #expect(
                Set(try context.fetch(FetchDescriptor(predicate: unreserved)).map(\.name))
                    == expectedUnreserved)
            #expect(
                try context.fetchCount(FetchDescriptor(predicate: unreserved)) == expectedUnreserved.count)
            var enumerated: Set<String> = []
            try ModelContext(container).enumerate(FetchDescriptor(predicate: unreserved), batchSize: 3) {
                enumerated.insert($0.name)
            }
            #expect(enumerated == expectedUnreserved, "seed \(seed)")

            // To-one attribute access, `contains`, `isEmpty`.
            let staysAt = #Predicate<Trip> { $0.livingAccommodation?.placeName == place }
            let expectedStays = Set(all.filter { $0.livingAccommodation?.placeName == place }.map(\.name))
            #expect(Set(try context.fetch(FetchDescriptor(predicate: staysAt)).map(\.name)) == expectedStays)
            let hasI1 = #Predicate<Trip> { trip in trip.bucketList.contains { $0.title == "I1" } }
            let expectedI1 = Set(all.filter { $0.bucketList.contains { $0.title == "I1" } }.map(\.name))
            #expect(Set(try context.fetch(FetchDescriptor(predicate: hasI1)).map(\.name)) == expectedI1)
            let empty = #Predicate<Trip> { $0.bucketList.isEmpty }
            #expect(
                Set(try context.fetch(FetchDescriptor(predicate: empty)).map(\.name))
                    == Set(all.filter(\.bucketList.isEmpty).map(\.name)))

            // The history talk's identifier predicate, on a random stay.
            if let stay = all.compactMap(\.livingAccommodation).randomElement(using: &random) {
                let modelID = stay.persistentModelID
                let matched = try context.fetch(
                    FetchDescriptor<Trip>(
                        predicate: #Predicate { trip in trip.livingAccommodation?.persistentModelID == modelID
                        }))
                #expect(matched.map(\.name) == [stay.trip?.name].compactMap { $0 })
            }

            // From the other side: items whose trip goes to one destination, sorted by the trip's name.
            let items = try context.fetch(FetchDescriptor<BucketListItem>())
            let destination = "D\(Int.random(in: 0...2, using: &random))"
            let onTrips = try context.fetch(
                FetchDescriptor<BucketListItem>(
                    predicate: #Predicate { $0.trip?.destination == destination },
                    sortBy: [SortDescriptor(\.trip?.name), SortDescriptor(\.title)]))
            let expectedItems = items.filter { $0.trip?.destination == destination }
                .sorted { ($0.trip!.name, $0.title) < ($1.trip!.name, $1.title) }
            #expect(
                onTrips.map(\.persistentModelID) == expectedItems.map(\.persistentModelID), "seed \(seed)")
        }
    }

    @Test func unsavedChangesOfRelatedModelsCountUnlessExcluded() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(.inMemory)
        let context = ModelContext(container)
        let trip = try makeTrip("Lisbon", items: 1, in: context)
        trip.bucketList[0].hasReservation = true  // unsaved
        let reserved = #Predicate<Trip> { trip in trip.bucketList.contains { $0.hasReservation } }
        #expect(try context.fetch(FetchDescriptor(predicate: reserved)).map(\.name) == ["Lisbon"])
        var saved = FetchDescriptor(predicate: reserved)
        saved.includePendingChanges = false
        #expect(try context.fetch(saved).isEmpty)
    }
}
