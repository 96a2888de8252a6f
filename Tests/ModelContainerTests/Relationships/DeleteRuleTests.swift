import DataStoreCore
import DataStoreKit
import DataStoreModels
import Foundation
import SampleTrips
import Testing

/// Delete rules are applied by the save, in its transaction, and recorded in history.
@Suite struct DeleteRuleTests {
    /// Deleting half of a trip's 300 items in one save nullifies their trip's list once, not once per item:
    /// the rules read each list entry a few times in all (taking the items out one by one read the list 300
    /// times per item deleted, twice).
    @Test func deletingManyItemsOfOneListReadsTheListOnce() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(.inMemory)
        let setup = ModelContext(container)
        let trip = Trip(name: "Lisbon", destination: "Lisbon", startDay: 0, days: 3)
        setup.insert(trip)
        trip.bucketList = (0..<300).map { BucketListItem(title: "Item \($0)") }
        try setup.save()

        let context = ModelContext(container)
        let items = try context.fetch(FetchDescriptor<BucketListItem>(sortBy: [SortDescriptor(\.title)]))
        let deleted = Set(items.prefix(150).map(\.title))
        for item in items.prefix(150) { context.delete(item) }
        let examined = ExaminedCount()
        try DeleteRules.$examined.withValue(examined) { try context.save() }
        // At least the list once: a count of zero would mean the counter no longer sees the rules.
        #expect((300...4 * 300).contains(examined.count), "the rules read \(examined.count) list entries")

        let check = ModelContext(container)
        let stored = try #require(try check.fetch(FetchDescriptor<Trip>()).first)
        let titles = stored.bucketList.map(\.title)
        #expect(titles.count == 150)
        #expect(Set(titles).isDisjoint(with: deleted))
        #expect(try check.fetchCount(FetchDescriptor<BucketListItem>()) == 150)
    }

    @Test(arguments: TripStores.Kind.allCases)
    func cascadeDeletesTheTripItsItemsAndItsStayInOneTransaction(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let context = ModelContext(container)
        let trip = try makeTrip("Lisbon", items: 3, in: context)
        try makeTrip("Oslo", items: 2, in: context)
        let before = try #require(try context.fetchHistory(.init()).last?.token)
        let related = Set(
            [trip.persistentModelID, try #require(trip.livingAccommodation?.persistentModelID)]
                + trip.bucketList.map(\.persistentModelID))
        #expect(related.count == 5)
        let firstItem = try #require(trip.bucketList.first?.persistentModelID)

        context.delete(trip)
        try context.save()

        let transactions = try context.fetchHistory(
            HistoryDescriptor(predicate: #Predicate { $0.token > before }))
        #expect(transactions.count == 1)
        let changes = try #require(transactions.first?.changes)
        #expect(changes.count == 5)
        #expect(changes.allSatisfy { $0.kind == .delete })
        #expect(Set(changes.map(\.changedPersistentIdentifier)) == related)
        let tombstones = changes.compactMap { change -> HistoryDelete<LivingAccommodation>? in
            guard case .delete(let delete as HistoryDelete<LivingAccommodation>) = change else { return nil }
            return delete
        }
        #expect(tombstones.map { $0.tombstone[\LivingAccommodation.placeName] } == ["Stay in Lisbon"])
        let tripDelete = changes.first { $0.changedPersistentIdentifier == trip.persistentModelID }
        #expect(tripDelete?.tombstone?["name"] == .string("Lisbon"))

        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Oslo"])
        #expect(try fresh.fetchCount(FetchDescriptor<BucketListItem>()) == 2)
        #expect(try fresh.fetchCount(FetchDescriptor<LivingAccommodation>()) == 1)
        // The deleting context forgot the cascaded models too...
        #expect(context.registeredModel(for: firstItem) as BucketListItem? == nil)
        // ... and the deleted trip no longer holds them (they would hold it back and never be freed): its
        // relationships read what the store holds, which is nothing.
        #expect(trip.bucketList.isEmpty)
        #expect(trip.livingAccommodation == nil)
    }

    @Test(arguments: TripStores.Kind.allCases)
    func deletingTheStayNullifiesTheTripsRelationshipInEveryContext(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let app = ModelContext(container)
        let trip = try makeTrip("Lisbon", items: 1, in: app)
        let stay = try #require(trip.livingAccommodation)
        let before = try #require(try app.fetchHistory(.init()).last?.token)

        let other = ModelContext(container)
        let otherTrip = try #require(try other.fetch(FetchDescriptor<Trip>()).first)
        #expect(otherTrip.livingAccommodation?.placeName == "Stay in Lisbon")

        let widget = ModelContext(container)
        widget.author = TransactionAuthor.widget
        widget.delete(try #require(widget.model(for: stay.persistentModelID) as? LivingAccommodation))
        try widget.save()

        // The app's context sees it after a fetch, as does another context that had read it.
        _ = try app.fetch(FetchDescriptor<Trip>())
        #expect(trip.livingAccommodation == nil)
        _ = try other.fetch(FetchDescriptor<Trip>())
        #expect(otherTrip.livingAccommodation == nil)
        #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first?.livingAccommodation == nil)
        #expect(trip.bucketList.count == 1)  // other relationships untouched

        let changes = try app.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > before }))
            .flatMap(\.changes)
        #expect(changes.map(\.kind) == [.delete, .update])
        guard case .update(let update as HistoryUpdate<Trip>) = changes.last else {
            Issue.record("expected a typed Trip update, got \(String(describing: changes.last))")
            return
        }
        #expect(update.updatedAttributes.contains(\Trip.livingAccommodation))
        #expect(update.updatedAttributes.count == 1)
        var matched = false
        for keyPath in update.updatedAttributes {
            switch keyPath {
            case \Trip.livingAccommodation: matched = true
            default: break
            }
        }
        #expect(matched)
    }

    @Test(arguments: TripStores.Kind.allCases)
    func deletingAnItemRemovesItFromTheTripsList(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let context = ModelContext(container)
        let trip = try makeTrip("Lisbon", items: 3, in: context)
        let doomed = trip.bucketList[1]
        context.delete(doomed)
        try context.save()
        #expect(trip.bucketList.map(\.title) == ["Lisbon 0", "Lisbon 2"])
        let fresh = try #require(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first)
        #expect(fresh.bucketList.map(\.title) == ["Lisbon 0", "Lisbon 2"])
    }

    @Test(arguments: TripStores.Kind.allCases)
    func denyRefusesTheDeleteAndWritesNothing(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind, [Shelf.self], name: "shelves")
        let context = ModelContext(container)
        let shelf = Shelf(label: "Fiction")
        context.insert(shelf)
        shelf.books.append(Book(title: "Dune"))
        try context.save()
        let history = try context.fetchHistory(.init()).count
        let bytes = try stores.fingerprint()

        context.delete(shelf)
        #expect {
            try context.save()
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .deleteDenied else { return false }
            return error.entity == "Shelf" && error.attribute == "books"
                && error.identifier == shelf.persistentModelID && error.changeCount == 1
        }
        #expect(try stores.fingerprint() == bytes)
        #expect(try ModelContext(container).fetchHistory(.init()).count == history)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Shelf>()) == 1)

        // Emptying the shelf first lets the delete through, in one save.
        context.rollback()
        let book = try #require(shelf.books.first)
        context.delete(book)
        context.delete(shelf)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Shelf>()) == 0)
        let last = try #require(try context.fetchHistory(.init()).last)
        // The book's tombstone keeps the shelf it was on (`.preserveValueOnDeletion` on a relationship).
        let bookDelete = last.changes.first { $0.changedPersistentIdentifier == book.persistentModelID }
        #expect(bookDelete?.tombstone?["shelf"] == .identifier(shelf.persistentModelID))
        guard case .delete(let typed as HistoryDelete<Book>)? = bookDelete else {
            Issue.record("expected a typed Book delete, got \(String(describing: bookDelete))")
            return
        }
        #expect(typed.tombstone[\Book.shelf] == [shelf.persistentModelID])
        #expect(typed.tombstone[\Book.title] == nil)
    }

    @Test(arguments: TripStores.Kind.allCases)
    func aCascadeCycleDeletesEachModelOnce(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind, [Ping.self], name: "cycle")
        let context = ModelContext(container)
        let ping = Ping()
        ping.name = "ping"
        context.insert(ping)
        let pong = Pong()
        pong.name = "pong"
        ping.pong = pong
        #expect(pong.ping === ping)
        try context.save()
        let before = try #require(try context.fetchHistory(.init()).last?.token)

        context.delete(pong)
        try context.save()
        let changes = try context.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > before }))
            .flatMap(\.changes)
        #expect(changes.map(\.kind) == [.delete, .delete])
        #expect(
            Set(changes.map(\.changedPersistentIdentifier)) == [
                ping.persistentModelID, pong.persistentModelID,
            ])
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Ping>()) == 0)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Pong>()) == 0)
    }

    /// An item moved to another trip and then deleted, in one save (a user drags it over, then deletes it):
    /// the delete wins and both lists end without it, as in SwiftData, where the delete's nullify takes it out
    /// of the list it joined. The move is made from either side. Before, the save refused: the other trip's
    /// list had gained a deleted model.
    @Test(arguments: TripStores.Kind.allCases, [false, true])
    func anItemMovedAndThenDeletedInOneSaveLeavesBothLists(_ kind: TripStores.Kind, fromTheList: Bool) throws
    {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let context = ModelContext(container)
        let (trips, tram) = try lisbonAndOslo(in: container, context: context)
        if fromTheList { trips[1].bucketList.append(tram) } else { tram.trip = trips[1] }
        #expect(trips[1].bucketList.map(\.title) == ["Fjord", "Tram"])
        context.delete(tram)
        try context.save()
        #expect(trips[0].bucketList.map(\.title) == ["Tiles"])
        #expect(trips[1].bucketList.map(\.title) == ["Fjord"])

        let check = ModelContext(container)
        let stored = try check.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(stored.map { $0.bucketList.map(\.title) } == [["Tiles"], ["Fjord"]])
        #expect(try check.fetchCount(FetchDescriptor<BucketListItem>()) == 2)
        // The context saves again without complaint: nothing it holds names the deleted item.
        trips[1].name = "Bergen"
        try context.save()
    }

    /// A rollback after such a move and delete puts the item back on its first trip's list, and the other
    /// trip's list back as it was.
    @Test func aRollbackAfterAMoveAndADeleteRestoresBothLists() throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(.inMemory)
        let context = ModelContext(container)
        let (trips, tram) = try lisbonAndOslo(in: container, context: context)
        tram.trip = trips[1]
        context.delete(tram)
        context.rollback()
        #expect(trips[0].bucketList.map(\.title) == ["Tram", "Tiles"])
        #expect(trips[1].bucketList.map(\.title) == ["Fjord"])
        #expect(tram.trip === trips[0])
        #expect(!context.hasChanges)
    }

    /// A trip deleted after it gained a new item and an item moved from another trip, in one save: its
    /// `.cascade` rule deletes both with it, as SwiftData applies the rules to the list as it is at the save.
    @Test(arguments: TripStores.Kind.allCases)
    func aTripDeletedAfterItGainedItemsDeletesThemToo(_ kind: TripStores.Kind) throws {
        let stores = try TripStores()
        defer { stores.remove() }
        let container = try stores.container(kind)
        let context = ModelContext(container)
        let (trips, _) = try lisbonAndOslo(in: container, context: context)
        let fjord = try #require(trips[1].bucketList.first)
        trips[0].bucketList.append(BucketListItem(title: "Passport"))
        fjord.trip = trips[0]
        context.delete(trips[0])
        try context.save()

        let check = ModelContext(container)
        #expect(try check.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Oslo"])
        #expect(try check.fetchCount(FetchDescriptor<BucketListItem>()) == 0)
        #expect(trips[1].bucketList.isEmpty)
    }

    /// Lisbon (Tram, Tiles) and Oslo (Fjord), saved; the trips in name order and the tram as `context` fetches
    /// them.
    private func lisbonAndOslo(in container: ModelContainer, context: ModelContext) throws -> (
        [Trip], BucketListItem
    ) {
        let setup = ModelContext(container)
        let lisbon = Trip(name: "Lisbon", destination: "Lisbon", startDay: 0, days: 3)
        let oslo = Trip(name: "Oslo", destination: "Oslo", startDay: 0, days: 3)
        setup.insert(lisbon)
        setup.insert(oslo)
        lisbon.bucketList = [BucketListItem(title: "Tram"), BucketListItem(title: "Tiles")]
        oslo.bucketList = [BucketListItem(title: "Fjord")]
        try setup.save()
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        return (trips, try #require(trips[0].bucketList.first { $0.title == "Tram" }))
    }
}
