import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import SampleTrips
import Testing

/// The seeds' unread-trips flow, end to end, on an in-memory store.
@Suite struct SeedScenarioTests {
    func makeContainer() throws -> ModelContainer {
        try ModelContainer(
            for: [Trip.self, LivingAccommodation.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "trips"))])
    }

    /// Seeds three trips, each with an accommodation, as the app.
    func seedTrips(in container: ModelContainer) throws -> [String: PersistentIdentifier] {
        let context = ModelContext(container)
        context.author = TransactionAuthor.app
        var accommodations: [String: LivingAccommodation] = [:]
        for (index, place) in ["Hotel Sol", "Cabin Pine", "Tent Dune"].enumerated() {
            let accommodation = LivingAccommodation(address: "\(index) Main St", placeName: place)
            context.insert(accommodation)
            accommodations[place] = accommodation
        }
        try context.save()
        for (index, (place, destination)) in [
            ("Hotel Sol", "Lisbon"), ("Cabin Pine", "Oslo"), ("Tent Dune", "Merzouga"),
        ]
        .enumerated() {
            let trip = Trip(
                name: "Trip to \(destination)", destination: destination, startDay: index * 10, days: 5)
            trip.livingAccommodation = accommodations[place]
            context.insert(trip)
        }
        try context.save()
        return accommodations.mapValues(\.persistentModelID)
    }

    func accommodation(
        named name: String, in identifiers: [String: PersistentIdentifier], context: ModelContext
    ) throws -> LivingAccommodation {
        let id = try #require(identifiers[name])
        return try #require(context.model(for: id) as? LivingAccommodation)
    }

    @Test func widgetChangesBadgeExactlyTheAffectedTrips() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let container = try makeContainer()
        let accommodations = try seedTrips(in: container)
        let reader = TripHistoryReader(
            modelContainer: container, tokenFile: directory.url.appendingPathComponent("token.json"))

        // The first call has no token, so, as in the seeds, it reads all history and stores a token.
        let initial = reader.findUnreadTrips()
        #expect(Set(initial.map(\.destination)) == ["Lisbon", "Oslo", "Merzouga"])
        #expect(FileManager.default.fileExists(atPath: reader.tokenFile.path))

        // The widget confirms one accommodation, and replaces another: insert new, delete old.
        let widget = ModelContext(container)
        widget.author = TransactionAuthor.widget
        let sol = try accommodation(named: "Hotel Sol", in: accommodations, context: widget)
        sol.isConfirmed = true
        let dune = try accommodation(named: "Tent Dune", in: accommodations, context: widget)
        widget.delete(dune)
        try widget.save()

        // The app saves something of its own, which the author filter must skip.
        let app = ModelContext(container)
        app.author = TransactionAuthor.app
        let pine = try accommodation(named: "Cabin Pine", in: accommodations, context: app)
        pine.address = "9 Fjord Rd"
        try app.save()

        // Lisbon's accommodation was updated: badged. Merzouga's was deleted: `remove` drops it.
        let unread = reader.findUnreadTrips()
        #expect(unread.map(\.destination) == ["Lisbon"])

        // Nothing new the second time.
        #expect(reader.findUnreadTrips().isEmpty)

        // A widget insert of a new accommodation for Oslo's trip is found next.
        let oslo = try #require(
            try app.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Oslo" })).first)
        let lodge = LivingAccommodation(address: "1 Ski Way", placeName: "Lodge Frost")
        widget.insert(lodge)
        try widget.save()
        oslo.livingAccommodation = try #require(
            app.model(for: lodge.persistentModelID) as? LivingAccommodation)
        try app.save()
        #expect(reader.findUnreadTrips().map(\.destination) == ["Oslo"])
        #expect(reader.findUnreadTrips().isEmpty)
    }

    @Test func deleteKeepsOnlyPreservedValuesInTheTombstone() throws {
        let container = try makeContainer()
        let accommodations = try seedTrips(in: container)
        let start = try #require(try ModelContext(container).fetchHistory(.init()).last?.token)

        let widget = ModelContext(container)
        widget.author = TransactionAuthor.widget
        let dune = try accommodation(named: "Tent Dune", in: accommodations, context: widget)
        widget.delete(dune)
        try widget.save()

        let transactions = try ModelContext(container).fetchHistory(
            HistoryDescriptor(predicate: #Predicate { $0.token > start }))
        #expect(transactions.count == 1)
        let change = try #require(transactions.first?.changes.first)
        guard case .delete(let deletion as HistoryDelete<LivingAccommodation>) = change else {
            Issue.record("expected a typed delete, got \(change)")
            return
        }
        #expect(deletion.tombstone[\LivingAccommodation.placeName] == "Tent Dune")
        #expect(deletion.tombstone[\LivingAccommodation.address] == nil)
        #expect(deletion.tombstone[\LivingAccommodation.isConfirmed] == nil)
        #expect(Set(deletion.tombstone.values.keys) == ["placeName"])
        #expect(deletion.changedPersistentIdentifier == accommodations["Tent Dune"])
    }

    @Test func updatedAttributesNameExactlyTheChangedAttributes() throws {
        let container = try makeContainer()
        _ = try seedTrips(in: container)
        let context = ModelContext(container)
        let start = try #require(try context.fetchHistory(.init()).last?.token)
        let trip = try #require(
            try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Oslo" })).first
        )
        trip.destination = "Bergen"
        trip.endDate = trip.endDate.addingTimeInterval(86_400)
        let sameName = trip.name
        trip.name = sameName  // written with its old value: not a change
        try context.save()

        let changes = try context.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > start }))
            .flatMap(\.changes)
        #expect(changes.count == 1)
        guard case .update(let update as HistoryUpdate<Trip>) = changes.first else {
            Issue.record("expected a typed update, got \(String(describing: changes.first))")
            return
        }
        #expect(update.updatedAttributeNames == ["destination", "endDate"])
        #expect(update.updatedAttributes == [\Trip.destination, \Trip.endDate])
        // The seeds' `switch attr { case \Hero.power: }` idiom works on the key paths.
        var sawDestination = false
        for attribute in update.updatedAttributes {
            switch attribute {
            case \Trip.destination: sawDestination = true
            case \Trip.name: Issue.record("name did not change value")
            default: break
            }
        }
        #expect(sawDestination)
    }
}
