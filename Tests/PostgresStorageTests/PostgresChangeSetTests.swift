import DataStoreModels

#if PostgreSQL
    import DataStoreCore
    import Foundation
    import PostgresStorage
    import SampleTrips
    import StoreTestSupport
    import Testing

    /// Change sets on PostgreSQL: two containers (two connections, as two processes would have) edit one trip
    /// and its items.
    @Suite struct PostgresChangeSetTests {
        /// A container over the trips' tables in `namespace`.
        static func container(_ namespace: String) throws -> ModelContainer {
            try ModelContainer(
                for: [Trip.self],
                configurations: [
                    ModelConfiguration(
                        PostgresStoreConfiguration(
                            name: "trips", connectionString: try PostgresServer.connectionString,
                            databaseSchema: namespace))
                ])
        }

        static func seed(_ container: ModelContainer, trips: [(String, Int)]) throws {
            let context = ModelContext(container)
            for (name, items) in trips {
                let trip = Trip(name: name, destination: name, startDay: 0, days: 3)
                context.insert(trip)
                for index in 0..<items { trip.bucketList.append(BucketListItem(title: "\(name) \(index)")) }
            }
            try context.save()
        }

        @Test func twoConnectionsEditingDifferentAttributesBothSurvive() throws {
            let namespace = PostgresServer.freshNamespace("cs")
            let (first, second) = (try Self.container(namespace), try Self.container(namespace))
            try Self.seed(first, trips: [("Lisbon", 0)])
            let start = try #require(try ModelContext(first).fetchHistory(.init()).last?.token)
            let app = ModelContext(first)
            app.author = "app"
            let widget = ModelContext(second)
            widget.author = "widget"
            let appTrip = try #require(try app.fetch(FetchDescriptor<Trip>()).first)
            let widgetTrip = try #require(try widget.fetch(FetchDescriptor<Trip>()).first)

            appTrip.destination = "Porto"
            try app.save()
            widgetTrip.endDate = Date(timeIntervalSinceReferenceDate: 9 * 86_400)
            try widget.save()

            let stored = try #require(try ModelContext(first).fetch(FetchDescriptor<Trip>()).first)
            #expect(stored.destination == "Porto")
            #expect(stored.endDate == Date(timeIntervalSinceReferenceDate: 9 * 86_400))
            let transactions = try ModelContext(second).fetchHistory(
                HistoryDescriptor<ContainerHistoryTransaction>(predicate: #Predicate { $0.token > start }))
            #expect(transactions.map(\.author) == ["app", "widget"])
            #expect(
                transactions.map { $0.changes.map(\.updatedAttributes) } == [
                    [["destination"]], [["endDate"]],
                ])
        }

        /// The seeds' app and widget as two processes on one PostgreSQL store.
        @Test func twoProcessesEditingDifferentAttributesBothSurvive() throws {
            let namespace = PostgresServer.freshNamespace("cs")
            let container = try Self.container(namespace)
            try Self.seed(container, trips: [("Lisbon", 0)])
            let start = try #require(try ModelContext(container).fetchHistory(.init()).last?.token)
            #expect(
                try appAndWidgetEditOneTrip(open: "open-postgres \(namespace)") == [
                    "OK", "OK", "OK", "OK", "OK", "SAVED", "OK", "SAVED",
                ])

            let stored = try #require(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first)
            #expect(stored.destination == "Porto")
            #expect(stored.endDate == Date(timeIntervalSinceReferenceDate: 9 * 86_400))
            let transactions = try ModelContext(container).fetchHistory(
                HistoryDescriptor<ContainerHistoryTransaction>(predicate: #Predicate { $0.token > start }))
            #expect(transactions.map(\.author) == ["app", "widget"])
            #expect(
                transactions.map { $0.changes.map(\.updatedAttributes) } == [
                    [["destination"]], [["endDate"]],
                ])
        }

        @Test func movingAnItemWhileAnotherConnectionAppendsKeepsTheGraphConsistent() throws {
            let namespace = PostgresServer.freshNamespace("cs")
            let (first, second) = (try Self.container(namespace), try Self.container(namespace))
            try Self.seed(first, trips: [("Lisbon", 1), ("Oslo", 0)])
            let mover = ModelContext(first)
            let appender = ModelContext(second)
            let trips = try mover.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            let staleLisbon = try #require(
                try appender.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Lisbon" })).first
            )
            #expect(staleLisbon.bucketList.count == 1)

            trips[1].bucketList.append(try #require(trips[0].bucketList.first))
            try mover.save()
            staleLisbon.bucketList.append(BucketListItem(title: "Lisbon new"))
            try appender.save()

            let stored = try StoredTrips(first)
            #expect(stored.inconsistencies == [])
            #expect(stored.lists == ["Lisbon": ["Lisbon new"], "Oslo": ["Lisbon 0"]])
            let deleter = ModelContext(second)
            deleter.delete(
                try #require(
                    try deleter.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Lisbon" }))
                        .first))
            try deleter.save()
            let after = try StoredTrips(first)
            #expect(after.owners == ["Lisbon 0": "Oslo"])
            #expect(after.inconsistencies == [])
        }

        @Test func theErrorPolicyRefusesAConflictAndWritesNothing() throws {
            let namespace = PostgresServer.freshNamespace("cs")
            let (first, second) = (try Self.container(namespace), try Self.container(namespace))
            try Self.seed(first, trips: [("Lisbon", 0)])
            let app = ModelContext(first)
            let widget = ModelContext(second)
            widget.mergePolicy = .error
            let appTrip = try #require(try app.fetch(FetchDescriptor<Trip>()).first)
            let widgetTrip = try #require(try widget.fetch(FetchDescriptor<Trip>()).first)
            appTrip.destination = "Porto"
            try app.save()
            let historyBefore = try ModelContext(first).fetchHistory(.init()).count

            widgetTrip.destination = "Faro"
            widgetTrip.endDate = Date(timeIntervalSinceReferenceDate: 5)
            #expect {
                try widget.save()
            } throws: { error in
                (error as? DataStoreError)?.code == .mergeConflict
                    && (error as? DataStoreError)?.attribute == "destination"
            }
            #expect(try ModelContext(first).fetchHistory(.init()).count == historyBefore)
            let stored = try #require(try ModelContext(first).fetch(FetchDescriptor<Trip>()).first)
            #expect(stored.destination == "Porto")
            #expect(stored.endDate == Date(timeIntervalSinceReferenceDate: 3 * 86_400))
        }
    }
#endif
