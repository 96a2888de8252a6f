import DataStoreCore
public import DataStoreModels
public import Foundation

/// The seeds' scenario as steps that separate processes run: the app seeds trips and looks for unread ones;
/// the widget confirms one accommodation and deletes another. Used by the `sample-trips` example and by the
/// multi-process tests.
public enum TripsScenario {
    /// The trips the app seeds: destination and accommodation.
    public static let plans = [("Lisbon", "Hotel Sol"), ("Oslo", "Cabin Pine"), ("Merzouga", "Tent Dune")]

    /// Seeds the trips as the app, once: a second call finds them and does nothing.
    @discardableResult
    public static func seed(_ container: ModelContainer) throws -> Int {
        let app = ModelContext(container)
        app.author = TransactionAuthor.app
        guard try app.fetchCount(FetchDescriptor<Trip>()) == 0 else { return 0 }
        for (index, (destination, place)) in plans.enumerated() {
            let stay = LivingAccommodation(address: "\(index + 1) Main St", placeName: place)
            app.insert(stay)
            let trip = Trip(
                name: "Trip to \(destination)", destination: destination, startDay: 9_000 + index * 10,
                days: 5)
            app.insert(trip)
            trip.livingAccommodation = stay
        }
        try app.save()
        return plans.count
    }

    /// What the widget did.
    public struct WidgetResult: Sendable {
        /// The accommodation it confirmed.
        public var confirmed: String?
        /// The accommodation it deleted.
        public var deleted: String?
    }

    /// As the widget (author "widget"): confirms Lisbon's accommodation and deletes Merzouga's.
    public static func widgetStep(_ container: ModelContainer) throws -> WidgetResult {
        let widget = ModelContext(container)
        widget.author = TransactionAuthor.widget
        var result = WidgetResult()
        let stays = try widget.fetch(FetchDescriptor<LivingAccommodation>())
        if let sol = stays.first(where: { $0.placeName == "Hotel Sol" }), !sol.isConfirmed {
            sol.isConfirmed = true
            result.confirmed = sol.placeName
        }
        if let dune = stays.first(where: { $0.placeName == "Tent Dune" }) {
            widget.delete(dune)
            result.deleted = dune.placeName
        }
        try widget.save()
        return result
    }

    /// As the app becoming active: the unread trips' names, through the token kept in `tokenFile`.
    public static func appStep(_ container: ModelContainer, tokenFile: URL) -> [String] {
        TripHistoryReader(modelContainer: container, tokenFile: tokenFile).findUnreadTrips().map(\.name)
            .sorted()
    }

    /// The preserved place names in the widget's delete tombstones.
    public static func deletedPlaceNames(_ container: ModelContainer) throws -> [String] {
        let widgetAuthor = TransactionAuthor.widget
        return try ModelContext(container).fetchHistory(
            HistoryDescriptor(predicate: #Predicate { $0.author == widgetAuthor })
        ).flatMap(\.changes).compactMap { change in
            guard case .delete(let deletion as HistoryDelete<LivingAccommodation>) = change else {
                return nil
            }
            return deletion.tombstone[\LivingAccommodation.placeName]
        }
    }
}
