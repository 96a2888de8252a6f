import DataStoreCore
import DataStoreModels
import Foundation
import SampleTrips
import StoreTestSupport
import Synchronization
import Testing

/// Defects found by an independent review (issue 37), each with the test that failed before its fix.
@Suite struct ReviewDefectTests {
    /// Item 4: an observer (and a fetch with `fetchLimit: 0`) starting from an expired token or one of another
    /// epoch throws, as documented, instead of starting silently.
    @Test(arguments: TripStores.Kind.allCases)
    func anObserverRefusesAnExpiredOrForeignEpochToken(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let context = ModelContext(container)
        try makeTrip("Lisbon", items: 0, in: context)
        let old = try #require(try context.fetchHistory(.init()).last?.token)
        try makeTrip("Oslo", items: 0, in: context)
        let newest = try #require(try context.fetchHistory(.init()).last?.token)
        try context.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.token <= newest }))

        #expect {
            try HistoryObserver(historyTokens: old, modelContainer: container)
        } throws: { ($0 as? DataStoreError)?.code == .historyTokenExpired }
        var limited = HistoryDescriptor<ContainerHistoryTransaction>(predicate: #Predicate { $0.token > old })
        limited.fetchLimit = 0
        #expect {
            try context.fetchHistory(limited)
        } throws: { ($0 as? DataStoreError)?.code == .historyTokenExpired }

        let foreignEpoch = CompositeHistoryToken(
            components: ["trips": .init(epoch: UUID(), sequence: 1)])
        #expect {
            try HistoryObserver(historyTokens: foreignEpoch, modelContainer: container)
        } throws: { ($0 as? DataStoreError)?.code == .historyTokenExpired }
        // The newest token is still good.
        _ = try HistoryObserver(historyTokens: newest, modelContainer: container)
    }

    /// Item 14: after another context renames a model, `model(for:)` answers the stored name; after another
    /// context deletes it, `existingModel(for:)` answers `nil`, as documented. A model with unsaved changes
    /// keeps them.
    @Test(arguments: TripStores.Kind.allCases)
    func modelForAnswersWhatTheStoreHoldsNow(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        try makeTrip("Lisbon", items: 0, in: ModelContext(container))
        let reader = ModelContext(container)
        let trip = try #require(try reader.fetch(FetchDescriptor<Trip>()).first)
        let id = trip.persistentModelID

        let writer = ModelContext(container)
        let theirs = try #require(writer.model(for: id) as? Trip)
        theirs.destination = "Porto"
        try writer.save()
        let answered = try #require(reader.model(for: id) as? Trip)
        #expect(answered === trip)
        #expect(answered.destination == "Porto")

        trip.endDate = Date(timeIntervalSinceReferenceDate: 99)  // unsaved here
        theirs.endDate = Date(timeIntervalSinceReferenceDate: 5)
        try writer.save()
        #expect((reader.model(for: id) as? Trip)?.endDate == Date(timeIntervalSinceReferenceDate: 99))
        reader.rollback()

        writer.delete(theirs)
        try writer.save()
        #expect(try reader.existingModel(for: id) == nil)
        #expect((reader.model(for: id) as? Trip)?.name == "")  // the placeholder, as for a model never saved
    }

    /// Item 8: a relationship that fails to load cannot answer in a getter, so it reads as empty; but the
    /// failure is not silent: the context's next save throws it and writes nothing, so an edit made on the
    /// empty list (an append, which would be saved as "remove every item the store holds") never reaches the
    /// store. A rollback clears it.
    @Test func aRelationshipThatFailedToLoadBlocksTheNextSave() throws {
        let store = try FailingFetchStore(
            .init(name: "trips", schema: Schema([Trip.self, LivingAccommodation.self, BucketListItem.self])))
        let container = try ModelContainer(
            for: [Trip.self, LivingAccommodation.self, BucketListItem.self],
            configurations: [ModelConfiguration(store: store)])
        try makeTrip("Lisbon", items: 2, in: ModelContext(container))
        let reader = ModelContext(container)
        let trip = try #require(try reader.fetch(FetchDescriptor<Trip>()).first)

        store.failsFetches.store(true, ordering: .relaxed)
        #expect(trip.bucketList.isEmpty)  // a getter cannot throw
        trip.bucketList.append(BucketListItem(title: "new"))
        #expect {
            try reader.save()
        } throws: { ($0 as? DataStoreError)?.code == .storageUnavailable }
        store.failsFetches.store(false, ordering: .relaxed)
        #expect(try StoredTrips(container).lists == ["Lisbon": ["Lisbon 0", "Lisbon 1"]])

        reader.rollback()
        let again = try #require(try reader.fetch(FetchDescriptor<Trip>()).first)
        #expect(again.bucketList.map(\.title).sorted() == ["Lisbon 0", "Lisbon 1"])
        again.destination = "Porto"
        try reader.save()
    }
}
