import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import JSONFileStorage
import PostgresStorage

/// Peers' published benchmarks replayed on this machine: Lighter's suite, which loads Northwind's 15,889
/// orders 500 times, and the RealmVsSwiftData suite's "create 100,000 simple users". This package's stores go
/// through the model layer (`ModelContext`), as an app would; the peers are SQLite through its C API with
/// hand mapping, and GRDB 7 with `Codable` records and with hand-mapped rows. The two are separate scenarios
/// (`--filter peers_load`, `--filter peers_create`; `--filter peers` runs both).
enum PeerScenario {
    /// One library's side of a comparison.
    private struct Contender {
        var name: String
        var label: String
        /// Prepares a fresh setting (untimed) and returns the timed work and a check of its result.
        var prepare: () throws -> (work: () throws -> Void, check: () throws -> Bool)
    }

    /// Times every contender in turn, round by round (A B C … A B C …), so that drift on a shared machine falls
    /// on all of them alike.
    private static func interleave(_ contenders: [Contender], rounds: Int, scenario: String) throws
        -> [String: Timing]
    {
        var samples: [String: [Double]] = [:]
        for _ in 0..<rounds {
            for contender in contenders {
                let (work, check) = try contender.prepare()
                samples[contender.name, default: []].append(try Measure.seconds(work))
                try verify(try check(), scenario, "\(contender.label) did not do the work")
            }
        }
        return samples.mapValues(Timing.init)
    }

    // MARK: Load

    static let northwindOrders = 15_889

    /// Lighter's scenario: load every order, again and again.
    static func load(_ report: Report, _ sizes: Sizes) throws {
        let orders = PlainOrder.northwind(count: northwindOrders)
        let expected = Set(orders)
        let scratch = try Scratch("peers-load")
        let path = scratch.path("northwind.sqlite").path
        let sqlite = try SQLiteDatabase(path: path)
        try RawSQLitePeers.populate(sqlite, orders)
        let grdb = try GRDBPeers.queue(path: path)
        let stores = try PeerStores(
            scratch: scratch, name: "orders", models: [PeerOrder.self], durability: .relaxed)
        defer { stores.dropPostgres() }
        for (_, container) in stores.containers {
            let context = ModelContext(container)
            for order in orders { context.insert(PeerOrder(order)) }
            try context.save()
        }

        // The same rows from every library before anything is timed.
        func same(_ loaded: [PlainOrder]) -> Bool { loaded.count == orders.count && Set(loaded) == expected }
        try verify(same(try RawSQLitePeers.load(sqlite)), "peers_load", "raw SQLite's orders")
        try verify(same(try GRDBPeers.loadCodable(grdb)), "peers_load", "GRDB Codable's orders")
        try verify(same(try GRDBPeers.loadRows(grdb).map(\.order)), "peers_load", "GRDB rows' orders")
        for (name, container) in stores.containers {
            let loaded = try ModelContext(container).fetch(FetchDescriptor<PeerOrder>()).map(\.plain)
            try verify(same(loaded), "peers_load", "the \(name) store's orders")
        }

        let perRound = sizes.peerLoadsPerRound
        func repeated(_ body: @escaping () throws -> Int) -> () throws -> (
            work: () throws -> Void, check: () throws -> Bool
        ) {
            {
                var counts: [Int] = []
                return (
                    { for _ in 0..<perRound { counts.append(try body()) } },
                    { counts.count == perRound && counts.allSatisfy { $0 == orders.count } }
                )
            }
        }
        var contenders = [
            Contender(
                name: "sqlite", label: "raw SQLite",
                prepare: repeated { try RawSQLitePeers.load(sqlite).count }),
            Contender(
                name: "grdb_rows", label: "GRDB rows",
                prepare: repeated { try GRDBPeers.loadRows(grdb).count }),
            Contender(
                name: "grdb_codable", label: "GRDB Codable",
                prepare: repeated { try GRDBPeers.loadCodable(grdb).count }),
        ]
        for (name, container) in stores.containers {
            // A new context for every load, so each load materialises every model again.
            contenders.append(
                Contender(
                    name: name, label: "the \(name) store",
                    prepare: repeated {
                        try ModelContext(container).fetch(FetchDescriptor<PeerOrder>()).count
                    }))
        }
        let timings = try interleave(contenders, rounds: sizes.peerLoadRounds, scenario: "peers_load")
        let loads = perRound * sizes.peerLoadRounds
        for contender in contenders {
            let perLoad = timings[contender.name]!.median / Double(perRound)
            report.metric(
                "peer_load_500_s_\(contender.name)", perLoad * 500, "s",
                detail:
                    "\(contender.label): \(orders.count) orders per load, median \(Report.time(perLoad)) a load over "
                    + "\(loads) loads in \(sizes.peerLoadRounds) interleaved rounds, times 500")
        }
        let json = timings["jsonfile"]!.median
        for (peer, target) in [("grdb_rows", 1.0), ("grdb_codable", 3.0)] {
            let ratio = timings[peer]!.median / json
            report.metric(
                "peer_load_jsonfile_vs_\(peer)", ratio, "x", target: ">= \(Report.format(target))x",
                met: ratio >= target,
                detail: "the JSON file store's load against \(peer)'s, medians of the rounds above")
        }
    }

    // MARK: Create

    /// The RealmVsSwiftData scenario: create N simple users, in one transaction, into an empty store.
    static func create(_ report: Report, _ sizes: Sizes) throws {
        let count = sizes.peerUsers
        let scratch = try Scratch("peers-create")
        var round = 0
        var stores = 0
        // Each round's store gets a name of its own, so that no round writes into an earlier one's directory.
        func storeRound() -> Int {
            stores += 1
            return stores
        }
        func fresh() -> String {
            round += 1
            return scratch.path("users-\(round).sqlite").path
        }
        var contenders = [
            Contender(name: "sqlite", label: "raw SQLite") {
                let database = try SQLiteDatabase(path: fresh())
                try database.execute(PlainUser.createTable)
                return (
                    { try RawSQLitePeers.createUsers(database, count: count) },
                    { try RawSQLitePeers.userCount(database) == count }
                )
            },
            Contender(name: "grdb_mapped", label: "GRDB hand-mapped records") {
                let queue = try GRDBPeers.queue(path: fresh())
                try queue.write { try $0.execute(sql: PlainUser.createTable) }
                return (
                    { try GRDBPeers.create(GRDBPeers.MappedUser.self, queue, count: count) },
                    { try GRDBPeers.userCount(queue) == count }
                )
            },
            Contender(name: "grdb_codable", label: "GRDB Codable records") {
                let queue = try GRDBPeers.queue(path: fresh())
                try queue.write { try $0.execute(sql: PlainUser.createTable) }
                return (
                    { try GRDBPeers.create(GRDBPeers.CodableUser.self, queue, count: count) },
                    { try GRDBPeers.userCount(queue) == count }
                )
            },
        ]
        var everyStore: [PeerStores] = []
        defer { for stores in everyStore { stores.dropPostgres() } }
        for name in PeerStores.names() {
            contenders.append(
                Contender(name: name, label: "the \(name) store") {
                    // A new, empty store for every round.
                    let stores = try PeerStores(
                        scratch: scratch, name: "users\(storeRound())", models: [PeerUser.self],
                        durability: .full, only: name)
                    // Kept to drop the PostgreSQL schema at the end, without the container: a round's store
                    // (100,000 models in memory) must not stay alive into the next rounds, whose allocations
                    // would then all be fresh pages (the peers' rounds keep nothing either).
                    var dropped = stores
                    dropped.containers = []
                    everyStore.append(dropped)
                    let container = stores.containers[0].container
                    return (
                        {
                            let context = ModelContext(container)
                            for index in 0..<count {
                                let names = PlainUser.names(index)
                                let user = PeerUser()
                                user.id = UUID().uuidString
                                user.firstName = names.first
                                user.lastName = names.last
                                user.age = names.age
                                context.insert(user)
                            }
                            try context.save()
                        },
                        { try ModelContext(container).fetchCount(FetchDescriptor<PeerUser>()) == count }
                    )
                })
        }
        let timings = try interleave(contenders, rounds: sizes.peerCreateRounds, scenario: "peers_create")
        for contender in contenders {
            let timing = timings[contender.name]!
            report.metric(
                "peer_create_s_\(contender.name)", timing.median, "s",
                detail:
                    "\(contender.label): create \(count) users in one durable transaction, median of "
                    + "\(sizes.peerCreateRounds) (min \(Report.time(timing.min)), max \(Report.time(timing.max)))"
            )
        }
        let json = timings["jsonfile"]!.median
        for peer in ["grdb_codable", "grdb_mapped"] {
            let ratio = timings[peer]!.median / json
            report.metric(
                "peer_create_jsonfile_vs_\(peer)", ratio, "x", target: ">= 1x", met: ratio >= 1,
                detail: "the JSON file store's create against \(peer)'s, medians of the rounds above")
        }
    }
}
