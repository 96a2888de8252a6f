import DataStoreCore
public import DataStoreModels
import Foundation

/// Two contexts in this process and two helper processes edit the same trips and bucket-list items from their
/// own, often stale, views, in random interleavings (see ``TripEditor`` for the edits). After every step the
/// stored graph must be consistent (every item's trip lists it, every list holds only items whose trip it is,
/// no reference to a missing model), a refused save and a rollback must leave the store as it was, deleting a
/// trip must delete exactly the items whose trip it is at that moment, and a batch delete of a trip's items
/// exactly those. After a rollback an editor keeps the models it inserted in its view, detached, as an app's
/// list would.
///
/// Stores plug in through the `open` closure: the JSON file store in `RelationshipInterleavingTests`,
/// PostgreSQL in `PostgresInterleavingTests`.
public final class TripInterleaving<Model: EditableTrip> {
    /// How often each kind of step ran, for the tests' checks that the interleavings reached them.
    public struct Counts: CustomStringConvertible, Sendable {
        /// Saves tried, and how many the store refused.
        public var saves = 0, refused = 0
        /// Trip deletes saved, and rollbacks.
        public var cascades = 0, rollbacks = 0
        /// Batch deletes saved, and the items they took.
        public var purges = 0, purgedItems = 0
        /// Lists reversed, and lists emptied.
        public var reversals = 0, clears = 0
        /// All of them, for a test's log.
        public var description: String {
            "saves \(saves) (refused \(refused)), cascades \(cascades), rollbacks \(rollbacks), purges \(purges) "
                + "(\(purgedItems) items), reversals \(reversals), clears \(clears)"
        }
    }

    /// The helper processes' extra arguments (`plain` for ``PlainTrip``).
    let helperArguments: [String]
    /// Opens seed `n`'s empty store: a container on it, and the command that opens it in a helper process
    /// (`open DIR` or `open-postgres SCHEMA`).
    let open: (Int) throws -> (container: ModelContainer, helperCommand: String)
    /// What the seeds run so far did.
    public private(set) var counts = Counts()

    /// Interleavings on the stores `open` makes; helpers run `trip-editor` with `helperArguments`.
    public init(
        helperArguments: [String] = [],
        open: @escaping (Int) throws -> (container: ModelContainer, helperCommand: String)
    ) {
        self.helperArguments = helperArguments
        self.open = open
    }

    /// Runs `seeds`, 24 steps each; returns what broke, in words, with the steps of the first seed that broke
    /// it (empty when everything held).
    public func run(seeds: Range<Int>) throws -> [String] {
        let processes = [
            try ChildProcess(["trip-editor", "p"] + helperArguments, takesCommands: true),
            try ChildProcess(["trip-editor", "q"] + helperArguments, takesCommands: true),
        ]
        defer {
            for process in processes {
                process.closeInput()
                process.waitForExit(timeout: .seconds(10))
            }
        }
        for seed in seeds {
            let problems = try run(seed: seed, helpers: processes)
            if !problems.isEmpty { return ["seed \(seed):"] + problems }
        }
        return []
    }

    private func run(seed: Int, helpers processes: [ChildProcess]) throws -> [String] {
        let (container, helperCommand) = try open(seed)
        let contexts = [
            TripEditor<Model>(container: container, author: "a"),
            TripEditor<Model>(container: container, author: "b"),
        ]
        var problems = Problems()
        for process in processes {
            let answer = process.request(helperCommand)
            guard answer == "OK" else {
                return ["a helper answered \(answer ?? "nothing") to \(helperCommand)"]
            }
        }
        var editors: [(name: String, perform: (String) -> String?)] = [
            ("a", contexts[0].perform), ("b", contexts[1].perform),
        ]
        for (index, process) in processes.enumerated() {
            editors.append((["p", "q"][index], { process.request($0) }))
        }
        var random = SplitMix64(seed: UInt64(seed))
        var log: [String] = []
        func run(_ editor: Int, _ command: String) throws -> String {
            let answer = editors[editor].perform(command) ?? "NO ANSWER"
            log.append("\(editors[editor].name): \(command) → \(answer)")
            return answer
        }
        // Two trips with two items each, then every editor reads them.
        for command in ["addTrip", "addTrip", "append 0", "append 0", "append 1", "append 1", "save"] {
            _ = try run(0, command)
        }
        for editor in editors.indices { _ = try run(editor, "refresh") }

        for _ in 0..<24 {
            let editor = Int.random(in: 0..<editors.count, using: &random)
            let (i, t) = (Int.random(in: 0..<8, using: &random), Int.random(in: 0..<8, using: &random))
            let before = try StoredTrips(container, of: Model.self)
            switch Int.random(in: 0..<16, using: &random) {
            case 0: _ = try run(editor, "refresh")
            case 1: _ = try run(editor, "addTrip")
            case 2, 3: _ = try run(editor, "append \(t)")
            case 4, 5: _ = try run(editor, "move \(i) \(t)")
            case 6: _ = try run(editor, "adopt \(i) \(t)")
            case 7: _ = try run(editor, "detach \(i)")
            case 8: _ = try run(editor, "deleteItem \(i)")
            case 9:
                // A delete saved on its own, so that the items it must take are known: those whose trip
                // is the deleted one when the save commits.
                _ = try run(editor, "save")
                let beforeDelete = try StoredTrips(container, of: Model.self)
                guard try run(editor, "deleteTrip \(t)") == "OK" else { break }
                let answer = try run(editor, "save")
                let after = try StoredTrips(container, of: Model.self)
                guard answer == "SAVED" else {
                    problems.expect(
                        after == beforeDelete,
                        "a refused save changed the store")
                    break
                }
                let deletedTrips = Set(beforeDelete.lists.keys).subtracting(after.lists.keys)
                let owned = deletedTrips.reduce(into: Set<String>()) {
                    $0.formUnion(beforeDelete.items(of: $1))
                }
                let deletedItems = Set(beforeDelete.owners.keys).subtracting(after.owners.keys)
                problems.expect(
                    deletedItems == owned,
                    "deleting \(deletedTrips) took \(deletedItems), owned \(owned)"
                )
                self.counts.cascades += 1
            case 14:
                if try run(editor, "reverse \(t)") == "OK" { self.counts.reversals += 1 }
            case 15:
                if try run(editor, "clear \(t)") == "OK" { self.counts.clears += 1 }
            case 10:
                self.counts.rollbacks += 1
                _ = try run(editor, "rollback")
                problems.expect(
                    try StoredTrips(container, of: Model.self) == before,
                    "a rollback changed the store")
            case 11:
                // A batch delete of a trip's items, saved on its own: afterwards no stored item is that
                // trip's, and every other item is still stored.
                _ = try run(editor, "save")
                let beforePurge = try StoredTrips(container, of: Model.self)
                let answer = try run(editor, "purge \(t)")
                guard answer.hasPrefix("OK ") else { break }
                let name = String(answer.dropFirst(3))
                guard try run(editor, "save") == "SAVED" else { break }
                let after = try StoredTrips(container, of: Model.self)
                problems.expect(
                    after.items(of: name).isEmpty,
                    "\(name) still has \(after.items(of: name))"
                )
                problems.expect(
                    Set(after.owners.keys)
                        == Set(beforePurge.owners.keys).subtracting(beforePurge.items(of: name)),
                    "the purge of \(name) took other items")
                self.counts.purges += 1
                self.counts.purgedItems += beforePurge.items(of: name).count
            default:
                self.counts.saves += 1
                if try run(editor, "save") != "SAVED" {
                    self.counts.refused += 1
                    let after = try StoredTrips(container, of: Model.self)
                    problems.expect(
                        after == before,
                        "a refused save changed the store")
                }
            }
            let stored = try StoredTrips(container, of: Model.self)
            problems.expect(stored.inconsistencies.isEmpty, "\(stored.inconsistencies)")
            if !problems.list.isEmpty { break }
        }
        if !problems.list.isEmpty { problems.list.append(log.joined(separator: "\n")) }
        return problems.list
    }
}
