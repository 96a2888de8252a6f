import DataStoreCore
import DataStoreModels
import Foundation
import JSONFileStorage
import SampleTrips
import StoreTestSupport
import Testing

/// Saves send change sets: two contexts editing one model keep each other's edits, history names each
/// context's own attributes, and the optimistic policy refuses a conflicting save without writing.
@Suite struct ChangeSetTests {
    @Test(arguments: TripStores.Kind.allCases)
    func twoContextsEditingDifferentAttributesBothSurvive(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        try makeTrip("Lisbon", items: 0, in: ModelContext(container))
        let start = try #require(try ModelContext(container).fetchHistory(.init()).last?.token)

        let app = ModelContext(container)
        app.author = "app"
        let widget = ModelContext(container)
        widget.author = "widget"
        let appTrip = try #require(try app.fetch(FetchDescriptor<Trip>()).first)
        let widgetTrip = try #require(try widget.fetch(FetchDescriptor<Trip>()).first)
        let newEnd = Date(timeIntervalSinceReferenceDate: 86_400 * 9)

        appTrip.destination = "Porto"
        try app.save()
        widgetTrip.endDate = newEnd  // its destination is still "Lisbon": it must not be written back
        try widget.save()

        let stored = try #require(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first)
        #expect(stored.destination == "Porto")
        #expect(stored.endDate == newEnd)

        let transactions = try ModelContext(container).fetchHistory(
            HistoryDescriptor<ContainerHistoryTransaction>(predicate: #Predicate { $0.token > start }))
        #expect(transactions.map(\.author) == ["app", "widget"])
        let updated = transactions.map { transaction in
            transaction.changes.compactMap { change -> [PartialKeyPath<Trip>]? in
                guard case .update(let update as HistoryUpdate<Trip>) = change else { return nil }
                return update.updatedAttributes
            }
        }
        let expected: [[[PartialKeyPath<Trip>]]] = [[[\Trip.destination]], [[\Trip.endDate]]]
        #expect(updated == expected)
    }

    /// The seeds' app and widget as two processes: each read the trip, then each changed one attribute.
    @Test func twoProcessesEditingDifferentAttributesBothSurvive() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let directory = stores.directory.appendingPathComponent("trips")
        let container = try ModelContainer(
            for: [Trip.self],
            configurations: [
                ModelConfiguration(JSONFileStoreConfiguration(name: "trips", directory: directory))
            ])
        try makeTrip("Lisbon", items: 0, in: ModelContext(container))
        let start = try #require(try ModelContext(container).fetchHistory(.init()).last?.token)
        #expect(
            try appAndWidgetEditOneTrip(open: "open \(directory.path)") == [
                "OK", "OK", "OK", "OK", "OK", "SAVED", "OK", "SAVED",
            ])

        let stored = try #require(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first)
        #expect(stored.destination == "Porto")
        #expect(stored.endDate == Date(timeIntervalSinceReferenceDate: 9 * 86_400))
        let transactions = try ModelContext(container).fetchHistory(
            HistoryDescriptor<ContainerHistoryTransaction>(predicate: #Predicate { $0.token > start }))
        #expect(transactions.map(\.author) == ["app", "widget"])
        #expect(
            transactions.map { $0.changes.map(\.updatedAttributes) } == [[["destination"]], [["endDate"]]])
    }

    @Test(arguments: TripStores.Kind.allCases)
    func theSameAttributeChangedTwiceKeepsTheLaterSaveByDefault(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        try makeTrip("Lisbon", items: 0, in: ModelContext(container))
        let first = ModelContext(container)
        let second = ModelContext(container)
        let firstTrip = try #require(try first.fetch(FetchDescriptor<Trip>()).first)
        let secondTrip = try #require(try second.fetch(FetchDescriptor<Trip>()).first)

        firstTrip.destination = "Porto"
        firstTrip.endDate = Date(timeIntervalSinceReferenceDate: 1_000)
        try first.save()
        secondTrip.destination = "Faro"
        try second.save()

        let stored = try #require(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first)
        #expect(stored.destination == "Faro")
        #expect(stored.endDate == Date(timeIntervalSinceReferenceDate: 1_000))
    }

    @Test(arguments: TripStores.Kind.allCases)
    func theErrorPolicyRefusesAConflictingSaveAndWritesNothing(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        try makeTrip("Lisbon", items: 0, in: ModelContext(container))
        try makeTrip("Oslo", items: 0, in: ModelContext(container))
        let app = ModelContext(container)
        let widget = ModelContext(container)
        widget.mergePolicy = .error
        let appTrips = try app.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        let widgetTrips = try widget.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        appTrips[0].destination = "Porto"
        appTrips[1].destination = "Bergen"
        try app.save()
        let historyBefore = try ModelContext(container).fetchHistory(.init()).count
        let bytesBefore = try stores.fingerprint()

        widgetTrips[0].destination = "Faro"
        widgetTrips[0].endDate = Date(timeIntervalSinceReferenceDate: 5)
        widgetTrips[1].destination = "Tromsø"
        #expect {
            try widget.save()
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .mergeConflict else { return false }
            // Both trips conflict on their destination; the first in identifier order is named.
            return error.identifier.map(Set(widgetTrips.map(\.persistentModelID)).contains) == true
                && error.attribute == "destination"
                && error.changeCount == 2
        }
        #expect(try stores.fingerprint() == bytesBefore)
        #expect(try ModelContext(container).fetchHistory(.init()).count == historyBefore)
        let stored = try ModelContext(container).fetch(
            FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(stored.map(\.destination) == ["Porto", "Bergen"])
        #expect(widget.hasChanges)  // the edits stay pending, to resolve by hand

        // An attribute nobody else changed saves under the same policy.
        widget.rollback()
        widgetTrips[0].endDate = Date(timeIntervalSinceReferenceDate: 7)
        try widget.save()
        let after = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(after[0].destination == "Porto")
        #expect(after[0].endDate == Date(timeIntervalSinceReferenceDate: 7))
    }

    @Test(arguments: TripStores.Kind.allCases)
    func editingAModelAnotherContextDeletedIsRefusedAndTheDeleteStands(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        try makeTrip("Lisbon", items: 1, in: ModelContext(container))
        let deleter = ModelContext(container)
        let editor = ModelContext(container)
        let edited = try #require(try editor.fetch(FetchDescriptor<Trip>()).first)
        deleter.delete(try #require(try deleter.fetch(FetchDescriptor<Trip>()).first))
        try deleter.save()
        let bytesBefore = try stores.fingerprint()

        edited.destination = "Porto"
        #expect {
            try editor.save()
        } throws: { error in
            (error as? DataStoreError)?.code == .modelNotFound
                && (error as? DataStoreError)?.identifier == edited.persistentModelID
        }
        #expect(try stores.fingerprint() == bytesBefore)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 0)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<BucketListItem>()) == 0)
    }

    /// A relationship gained in a stale view, pointing at a trip another context deleted: the save is refused
    /// with an error naming that trip, nothing is written, and the item stays where the store has it.
    @Test(arguments: TripStores.Kind.allCases)
    func movingAnItemToATripAnotherContextDeletedIsRefused(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let setup = ModelContext(container)
        try makeTrip("Lisbon", items: 1, in: setup)
        try makeTrip("Oslo", items: 0, in: setup)
        let mover = ModelContext(container)
        let trips = try mover.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        let item = try #require(trips[0].bucketList.first)
        let deleter = ModelContext(container)
        deleter.delete(
            try #require(
                try deleter.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Oslo" })).first))
        try deleter.save()
        let before = try StoredTrips(container)
        let bytesBefore = try stores.fingerprint()

        item.trip = trips[1]
        #expect {
            try mover.save()
        } throws: { error in
            // The save updates Oslo's list too (the mover's inverse in memory), so the store names Oslo as gone.
            let error = error as? DataStoreError
            return [.modelNotFound, .invalidRelationship].contains(error?.code)
                && error?.identifier == trips[1].persistentModelID
        }
        #expect(try stores.fingerprint() == bytesBefore)
        #expect(try StoredTrips(container) == before)
        #expect(before.owners == ["Lisbon 0": "Lisbon"])
    }

    /// The review's interleaving: one context moves an item from Lisbon to Oslo while another, holding the
    /// older Lisbon, appends a new item to it. Deleting Lisbon afterwards (cascade) must not take Oslo's item.
    @Test(arguments: TripStores.Kind.allCases)
    func movingAnItemWhileAnotherContextAppendsKeepsTheGraphConsistent(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let setup = ModelContext(container)
        try makeTrip("Lisbon", items: 1, in: setup)
        try makeTrip("Oslo", items: 0, in: setup)

        let mover = ModelContext(container)
        let appender = ModelContext(container)
        let moverTrips = try mover.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        let appenderLisbon = try #require(
            try appender.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Lisbon" })).first)
        #expect(appenderLisbon.bucketList.count == 1)  // loaded: the stale list the review used

        let item = try #require(moverTrips[0].bucketList.first)
        moverTrips[1].bucketList.append(item)  // Oslo takes it; Lisbon loses it in memory
        #expect(item.trip === moverTrips[1])
        try mover.save()
        appenderLisbon.bucketList.append(BucketListItem(title: "Lisbon new"))
        try appender.save()

        try expectConsistentTrips(in: container)
        let reader = ModelContext(container)
        let trips = try reader.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map { $0.bucketList.map(\.title).sorted() } == [["Lisbon new"], ["Lisbon 0"]])

        let deleter = ModelContext(container)
        deleter.delete(
            try #require(
                try deleter.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Lisbon" })).first)
        )
        try deleter.save()
        let items = try ModelContext(container).fetch(FetchDescriptor<BucketListItem>())
        #expect(items.map(\.title) == ["Lisbon 0"])
        #expect(items.first?.trip?.name == "Oslo")
        try expectConsistentTrips(in: container)
    }
}

/// Every stored item's trip lists it, and every trip lists only items whose trip it is, once each.
func expectConsistentTrips(in container: ModelContainer, sourceLocation: SourceLocation = #_sourceLocation)
    throws
{
    let context = ModelContext(container)
    let trips = try context.fetch(FetchDescriptor<Trip>())
    let items = try context.fetch(FetchDescriptor<BucketListItem>())
    let tripIDs = Set(trips.map(\.persistentModelID))
    for item in items {
        if let owner = item.trip {
            #expect(
                tripIDs.contains(owner.persistentModelID), "\(item.title) points at a missing trip",
                sourceLocation: sourceLocation)
            #expect(
                owner.bucketList.contains { $0.persistentModelID == item.persistentModelID },
                "\(owner.name) does not list \(item.title), whose trip it is", sourceLocation: sourceLocation)
        }
    }
    for trip in trips {
        let listed = trip.bucketList.map(\.persistentModelID)
        #expect(
            Set(listed).count == listed.count, "\(trip.name) lists an item twice",
            sourceLocation: sourceLocation)
        for item in trip.bucketList {
            #expect(
                item.trip?.persistentModelID == trip.persistentModelID,
                "\(trip.name) lists \(item.title), whose trip is \(item.trip?.name ?? "none")",
                sourceLocation: sourceLocation)
        }
    }
}
