import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import JSONFileStorage
import SampleTrips
import Testing

/// `ModelContext.delete(model:where:includeSubclasses:)`: the matches are deleted at the next save, in one
/// transaction, with delete rules, tombstones and unique values freed, on every store that deletes (through
/// `DataStoreBatching`) and on a store without it (the model layer's fallback).
@Suite struct BatchDeleteTests {
    enum Route: String, CaseIterable, CustomStringConvertible {
        case inMemory, jsonFile, withoutBatching
        var description: String { rawValue }
    }

    /// A container of the seeds' trips over the route's store.
    static func container(_ route: Route, _ stores: TripStores) throws -> ModelContainer {
        switch route {
        case .inMemory: try stores.container(.inMemory)
        case .jsonFile: try stores.container(.jsonFile)
        case .withoutBatching:
            try ModelContainer(
                for: [Trip.self],
                configurations: [ModelConfiguration(FailingFetchStoreConfiguration(name: "trips"))])
        }
    }

    @Test(arguments: Route.allCases)
    func theMatchesAreDeletedInOneTransactionWithTheirCascades(_ route: Route) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try Self.container(route, stores)
        let context = ModelContext(container)
        let lisbon = try makeTrip("Lisbon", items: 2, in: context)
        try makeTrip("Oslo", items: 1, in: context)
        try makeTrip("Lima", items: 0, in: context)
        let storeType: Any.Type =
            switch route {
            case .inMemory: InMemoryDataStore.self
            case .jsonFile: JSONFileDataStore.self
            case .withoutBatching: FailingFetchStore.self
            }
        #expect((storeType is any DataStoreBatching.Type) == (route != .withoutBatching))
        let before = try #require(try context.fetchHistory(.init()).last?.token)
        let lisbonRelated = Set(
            [lisbon.persistentModelID, try #require(lisbon.livingAccommodation?.persistentModelID)]
                + lisbon.bucketList.map(\.persistentModelID))

        context.author = "cleanup"
        try context.delete(model: Trip.self, where: #Predicate { $0.name.starts(with: "L") })
        #expect(context.hasChanges)
        try context.save()
        #expect(!context.hasChanges)

        let reader = ModelContext(container)
        #expect(try reader.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Oslo"])
        #expect(try reader.fetchCount(FetchDescriptor<BucketListItem>()) == 1)
        #expect(try reader.fetchCount(FetchDescriptor<LivingAccommodation>()) == 1)
        let transactions = try reader.fetchHistory(
            HistoryDescriptor(predicate: #Predicate { $0.token > before }))
        #expect(transactions.count == 1)
        let transaction = try #require(transactions.first)
        #expect(transaction.author == "cleanup")
        #expect(transaction.changes.allSatisfy { $0.kind == .delete })
        // Lisbon with its stay and two items, Lima with its stay.
        #expect(transaction.changes.count == 6)
        #expect(lisbonRelated.isSubset(of: Set(transaction.changes.map(\.changedPersistentIdentifier))))
        let names = transaction.changes.compactMap { $0.tombstone?["name"] }
        #expect(Set(names) == [.string("Lisbon"), .string("Lima")])
        // The context that deleted them no longer tracks them.
        #expect(try context.existingModel(for: lisbon.persistentModelID) == nil)
        #expect(context.registeredModel(for: lisbon.persistentModelID) as Trip? == nil)
    }

    @Test(arguments: Route.allCases)
    func theTrackedModelsTheDeleteRulesChangedReadWhatTheStoreHolds(_ route: Route) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try Self.container(route, stores)
        let context = ModelContext(container)
        let oslo = try makeTrip("Oslo", items: 3, in: context)
        // Both sides loaded: the trip holds its stay and its items, and they hold it.
        #expect(oslo.bucketList.map(\.title) == ["Oslo 0", "Oslo 1", "Oslo 2"])
        #expect(oslo.livingAccommodation?.trip === oslo)

        try context.delete(model: BucketListItem.self, where: #Predicate { $0.title == "Oslo 1" })
        try context.delete(model: LivingAccommodation.self)
        try context.save()
        // The store nullified the trip's side of both; the trip the context tracks says so too.
        #expect(oslo.bucketList.map(\.title) == ["Oslo 0", "Oslo 2"])
        #expect(oslo.livingAccommodation == nil)
        #expect(!context.hasChanges)
        let stored = try #require(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first)
        #expect(stored.bucketList.map(\.title) == ["Oslo 0", "Oslo 2"])
        #expect(stored.livingAccommodation == nil)
    }

    @Test(arguments: Route.allCases)
    func aDeletedUniqueNameIsFreeForANewModel(_ route: Route) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try Self.container(route, stores)
        let context = ModelContext(container)
        let old = try makeTrip("Lisbon", items: 0, in: context)
        try context.delete(model: Trip.self)
        try context.save()
        let again = try makeTrip("Lisbon", items: 0, in: context)
        #expect(again.persistentModelID != old.persistentModelID)
        #expect(
            try ModelContext(container).fetch(FetchDescriptor<Trip>()).map(\.persistentModelID) == [
                again.persistentModelID
            ])
    }

    @Test func untilTheSaveFetchesLeaveTheMatchesOutAndRollbackKeepsThem() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(.inMemory)
        let context = ModelContext(container)
        try makeTrip("Lisbon", items: 0, in: context)
        try makeTrip("Oslo", items: 0, in: context)
        context.insert(Trip(name: "Lima", destination: "Lima", startDay: 0, days: 1))  // unsaved, matches
        try context.delete(model: Trip.self, where: #Predicate { $0.name.starts(with: "L") })
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Oslo"])
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 1)
        // The store still holds them until the save.
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 2)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(Set(try context.fetch(FetchDescriptor<Trip>()).map(\.name)) == ["Lisbon", "Oslo"])
    }

    @Test func anUnsavedInsertThatMatchesIsSavedThenDeleted() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(.jsonFile)
        let context = ModelContext(container)
        try makeTrip("Oslo", items: 0, in: context)
        context.insert(Trip(name: "Lima", destination: "Lima", startDay: 0, days: 1))
        try context.delete(model: Trip.self, where: #Predicate { $0.name == "Lima" })
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).map(\.name) == ["Oslo"])
        let history = try context.fetchHistory(.init())
        // The save's insert, then the batch delete: two transactions after Oslo's.
        #expect(history.count == 3)
        #expect(history.last?.changes.map(\.kind) == [.delete])
    }

    @Test func nothingMatchingCommitsNothing() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(.jsonFile)
        let context = ModelContext(container)
        try makeTrip("Oslo", items: 0, in: context)
        try context.delete(model: Trip.self, where: #Predicate { $0.name == "nowhere" })
        try context.save()
        #expect(try context.fetchHistory(.init()).count == 1)
    }

    @Test func aDenyRuleRefusesTheWholeBatchAndItStaysPending() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(.jsonFile, [Shelf.self], name: "shelves")
        let context = ModelContext(container)
        let full = Shelf(label: "full")
        context.insert(full)
        context.insert(Shelf(label: "empty"))
        full.books.append(Book(title: "Dune"))
        try context.save()
        try context.delete(model: Shelf.self)
        #expect { try context.save() } throws: { ($0 as? DataStoreError)?.code == .deleteDenied }
        #expect(context.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Shelf>()) == 2)
        context.rollback()
        try context.delete(model: Shelf.self, where: #Predicate { $0.label == "empty" })
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Shelf>()).map(\.label) == ["full"])
    }

    @Test func aTypeOutsideTheContainerIsRefused() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let context = ModelContext(try stores.container(.inMemory))
        #expect { try context.delete(model: Note.self) } throws: {
            ($0 as? DataStoreError)?.code == .modelTypeNotInContainer
        }
        #expect(!context.hasChanges)
    }
}
