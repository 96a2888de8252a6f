import DataStoreCore
import DataStoreModels
import Foundation
import JSONFileStorage
import SampleTrips
import StoreTestSupport
import Testing

/// Two contexts in this process and two helper processes edit the same trips and bucket-list items from their
/// own, often stale, views, in random interleavings. After every step the stored graph must be consistent
/// (every item's trip lists it, every list holds only items whose trip it is, no reference to a missing
/// model), a refused save and a rollback must leave the store as it was, deleting a trip must delete exactly the
/// items whose trip it is at that moment, and a batch delete of a trip's items exactly those. After a rollback
/// an editor keeps the models it inserted in its view, detached, as an app's list would.
///
/// Both of the seeds' spellings get the same interleavings: the sample's `Trip` (a plain list, `@Attribute`
/// properties) and `PlainTrip` (an optional list, plain stored properties, as the seeds' snippets write it).
///
/// 200 seeds of 24 steps for each in `swift test`; `DATASTORE_SOAK=1` runs 2,000.
@Suite struct RelationshipInterleavingTests {
    @Test func theSamplesTripsStayConsistent() throws {
        try twoContextsAndTwoProcessesKeepTheStoredGraphConsistent(Trip.self)
    }

    @Test func theSeedsSpellingStaysConsistent() throws {
        try twoContextsAndTwoProcessesKeepTheStoredGraphConsistent(PlainTrip.self, helperArguments: ["plain"])
    }

    func twoContextsAndTwoProcessesKeepTheStoredGraphConsistent<Model: EditableTrip>(
        _ model: Model.Type, helperArguments: [String] = []
    ) throws {
        let seeds = ProcessInfo.processInfo.environment["DATASTORE_SOAK"] == nil ? 200 : 2_000
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "interleaving-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let processes = [
            try ChildProcess(["trip-editor", "p"] + helperArguments, takesCommands: true),
            try ChildProcess(["trip-editor", "q"] + helperArguments, takesCommands: true),
        ]
        defer {
            for process in processes {
                process.closeInput()
                process.waitForExit(timeout: .seconds(10))
            }
            try? FileManager.default.removeItem(at: root)
        }
        var counts = (
            saves: 0, refused: 0, cascades: 0, rollbacks: 0, purges: 0, purgedItems: 0, reversals: 0,
            clears: 0
        )
        for seed in 0..<seeds {
            let directory = root.appendingPathComponent("\(seed)")
            let container = try ModelContainer(
                for: [model],
                configurations: [
                    ModelConfiguration(
                        JSONFileStoreConfiguration(name: "trips", directory: directory, durability: .relaxed))
                ])
            let contexts = [
                TripEditor<Model>(container: container, author: "a"),
                TripEditor<Model>(container: container, author: "b"),
            ]
            for process in processes {
                try #require(process.request("open \(directory.path)") == "OK")
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
                let answer = try #require(
                    editors[editor].perform(command), "\(editors[editor].name) did not answer")
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
                let before = try StoredTrips(container, of: model)
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
                    let beforeDelete = try StoredTrips(container, of: model)
                    guard try run(editor, "deleteTrip \(t)") == "OK" else { break }
                    let answer = try run(editor, "save")
                    let after = try StoredTrips(container, of: model)
                    guard answer == "SAVED" else {
                        #expect(
                            after == beforeDelete,
                            "seed \(seed): a refused save changed the store\n\(log.joined(separator: "\n"))")
                        break
                    }
                    let deletedTrips = Set(beforeDelete.lists.keys).subtracting(after.lists.keys)
                    let owned = deletedTrips.reduce(into: Set<String>()) {
                        $0.formUnion(beforeDelete.items(of: $1))
                    }
                    let deletedItems = Set(beforeDelete.owners.keys).subtracting(after.owners.keys)
                    #expect(
                        deletedItems == owned,
                        "seed \(seed): deleting \(deletedTrips) took \(deletedItems), owned \(owned)\n\(log.joined(separator: "\n"))"
                    )
                    counts.cascades += 1
                case 14:
                    if try run(editor, "reverse \(t)") == "OK" { counts.reversals += 1 }
                case 15:
                    if try run(editor, "clear \(t)") == "OK" { counts.clears += 1 }
                case 10:
                    counts.rollbacks += 1
                    _ = try run(editor, "rollback")
                    #expect(
                        try StoredTrips(container, of: model) == before,
                        "seed \(seed): a rollback changed the store")
                case 11:
                    // A batch delete of a trip's items, saved on its own: afterwards no stored item is that
                    // trip's, and every other item is still stored.
                    _ = try run(editor, "save")
                    let beforePurge = try StoredTrips(container, of: model)
                    let answer = try run(editor, "purge \(t)")
                    guard answer.hasPrefix("OK ") else { break }
                    let name = String(answer.dropFirst(3))
                    guard try run(editor, "save") == "SAVED" else { break }
                    let after = try StoredTrips(container, of: model)
                    #expect(
                        after.items(of: name).isEmpty,
                        "seed \(seed): \(name) still has \(after.items(of: name))\n\(log.joined(separator: "\n"))"
                    )
                    #expect(
                        Set(after.owners.keys)
                            == Set(beforePurge.owners.keys).subtracting(beforePurge.items(of: name)),
                        "seed \(seed): the purge of \(name) took other items\n\(log.joined(separator: "\n"))")
                    counts.purges += 1
                    counts.purgedItems += beforePurge.items(of: name).count
                default:
                    counts.saves += 1
                    if try run(editor, "save") != "SAVED" {
                        counts.refused += 1
                        let after = try StoredTrips(container, of: model)
                        #expect(
                            after == before,
                            "seed \(seed): a refused save changed the store\n\(log.joined(separator: "\n"))")
                    }
                }
                let stored = try StoredTrips(container, of: model)
                let problems = stored.inconsistencies
                #expect(problems.isEmpty, "seed \(seed): \(problems)\n\(log.joined(separator: "\n"))")
                if !problems.isEmpty { return }
            }
        }
        // The interleavings did reach the cases that matter.
        #expect(counts.saves > seeds * 5 / 2)
        #expect(counts.refused > 0)
        #expect(counts.cascades > seeds / 2)
        print("interleavings of \(model): \(seeds) seeds, \(counts)")
        #expect(counts.rollbacks > seeds / 2)
        #expect(counts.purges > seeds / 2)
        #expect(counts.purgedItems > seeds / 2, "the batch deletes took \(counts.purgedItems) items in all")
        #expect(counts.reversals > seeds / 2)
        #expect(counts.clears > seeds / 2)
    }
}
