import DataStoreCore
import Foundation
import InMemoryStorage
import SampleTrips
import Testing

@testable import DataStoreModels

/// `enumerate` over models whose relationships the block reads: a batch's related models load in one store
/// request, and each batch's models, related ones included, are let go before the next batch, so that memory
/// stays flat however many models are enumerated.
@Suite struct EnumerateRelationshipTests {
    /// A container holding `count` trips named `T0`, `T1`, ..., each with a stay.
    private func tripsWithStays(_ count: Int, in stores: TripStores) throws -> ModelContainer {
        let container = try stores.container(.inMemory)
        let setup = ModelContext(container)
        for index in 0..<count {
            let trip = Trip(name: "T\(index)", destination: "D\(index)", startDay: index, days: 1)
            setup.insert(trip)
            trip.livingAccommodation = LivingAccommodation(address: "\(index)", placeName: "P\(index)")
        }
        try setup.save()
        return container
    }

    @Test func aBatchsRelatedModelsLoadInOneStoreRequest() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try tripsWithStays(30, in: stores)
        let store = try #require(container.store("trips", as: InMemoryDataStore.self))

        let context = ModelContext(container)
        let before = store.fetchRequests
        var places: [String] = []
        try context.enumerate(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\Trip.startDate)]), batchSize: 10)
        {
            places.append($0.livingAccommodation?.placeName ?? "none")
        }
        #expect(places == (0..<30).map { "P\($0)" })
        // One request for the trips, then one for each batch's stays: not one per trip.
        #expect(store.fetchRequests - before == 4)
        // Their properties report changes, and none changed: no model was compared with its saved values.
        #expect(context.modelsExamined == 0)
    }

    @Test func eachBatchsModelsAndTheModelsTheyLoadedAreLetGo() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try tripsWithStays(30, in: stores)

        let context = ModelContext(container)
        weak var firstTrip: Trip?
        weak var firstStay: LivingAccommodation?
        var trackedAfterEachBatch: [Int] = []
        var visited = 0
        try context.enumerate(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\Trip.startDate)]), batchSize: 10)
        {
            trip in
            // Both ways: the stay's loaded inverse holds the trip back.
            let stay = trip.livingAccommodation
            #expect(stay?.trip === trip)
            if visited == 0 {
                firstTrip = trip
                firstStay = stay
            }
            visited += 1
            if visited % 10 == 1 { trackedAfterEachBatch.append(context.registry.count) }
        }
        #expect(visited == 30)
        // At the first model of each batch, the context tracks that batch's ten trips and the ten stays its first
        // read loaded, never what earlier batches brought in.
        #expect(trackedAfterEachBatch == [20, 20, 20])
        #expect(context.registry.count == 0, "the last batch is let go too")
        #expect(firstTrip == nil, "a trip of the first batch is freed while its context lives")
        #expect(firstStay == nil, "the stay it loaded is freed too")
    }

    @Test func modelsTrackedBeforeTheEnumerationOrChangedInItStayTracked() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try tripsWithStays(12, in: stores)

        let context = ModelContext(container)
        // Tracked before: a trip and, through it, its stay.
        let held = try #require(
            try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "T3" })).first)
        let heldStay = try #require(held.livingAccommodation)
        var changedStay: LivingAccommodation?
        try context.enumerate(
            FetchDescriptor<Trip>(sortBy: [SortDescriptor(\Trip.startDate)]), batchSize: 5,
            allowEscapingMutations: true
        ) { trip in
            guard let stay = trip.livingAccommodation else { return }
            if trip.name == "T7" {
                stay.placeName = "Changed"
                changedStay = stay
            }
        }
        #expect(context.registry[held.persistentModelID] != nil, "a trip tracked before stays tracked")
        #expect(context.registry[heldStay.persistentModelID] != nil, "its stay stays tracked")
        let changed = try #require(changedStay)
        #expect(
            context.registry[changed.persistentModelID] != nil, "a stay changed in the block stays tracked")
        #expect(held.livingAccommodation === heldStay)
        try context.save()
        let places = try ModelContext(container).fetch(FetchDescriptor<LivingAccommodation>()).map(
            \.placeName)
        #expect(places.contains("Changed"))
    }

    @Test func modelsKeptElsewhereStayTrackedAndTheirLaterChangesAreSaved() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try tripsWithStays(12, in: stores)

        let context = ModelContext(container)
        // Tracked before, its stay not read yet: the enumeration loads the stay, and the tracked trip holds it.
        let tracked = try #require(
            try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "T4" })).first)
        var kept: [Trip] = []
        try context.enumerate(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\Trip.startDate)]), batchSize: 5)
        {
            trip in
            _ = trip.livingAccommodation?.placeName
            if trip.name == "T2" { kept.append(trip) }
        }
        #expect(kept.count == 1)
        #expect(!context.hasChanges)
        // Changed after the enumeration: the context still tracks them, so the save writes the changes.
        kept[0].name = "Renamed"
        tracked.livingAccommodation?.placeName = "Moved"
        #expect(context.hasChanges)
        try context.save()
        let check = ModelContext(container)
        #expect(try check.fetch(FetchDescriptor<Trip>()).contains { $0.name == "Renamed" })
        #expect(try check.fetch(FetchDescriptor<LivingAccommodation>()).contains { $0.placeName == "Moved" })
    }

    @Test func aBlockThatThrowsLeavesNothingTrackedItDidNotKeep() throws {
        struct Stop: Error {}
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try tripsWithStays(12, in: stores)

        let context = ModelContext(container)
        weak var visitedTrip: Trip?
        var kept: Trip?
        #expect(throws: Stop.self) {
            try context.enumerate(
                FetchDescriptor<Trip>(sortBy: [SortDescriptor(\Trip.startDate)]), batchSize: 5
            ) { trip in
                _ = trip.livingAccommodation?.placeName
                if trip.name == "T5" { kept = trip }
                if trip.name == "T6" {
                    visitedTrip = trip
                    throw Stop()
                }
            }
        }
        // The batch the block stopped in is let go as a finished one is: only the trip kept stays tracked (its
        // stay, loaded again when read, is let go with the rest).
        #expect(context.registry.count == 1)
        #expect(visitedTrip == nil, "a visited trip nothing holds is freed while its context lives")
        let trip = try #require(kept)
        #expect(context.registry[trip.persistentModelID] != nil)
        trip.name = "Renamed"
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).contains { $0.name == "Renamed" })
    }
}
