public import DataStoreCore
import DataStoreModels
import DataStoreSync
import Foundation
import JSONFileStorage

/// Two devices and the server's own app edit lists at random (append, insert at the front, reverse, empty,
/// move an item to another list, take it off its list, delete it), and the devices push, pull or sync in random
/// order, engines restarting now and then, against any server store. At the end every device and the server must hold the same lists in the
/// same order, both sides of every link must agree, every item made and not deleted must still be held, and
/// every item no edit took off its list (by unlinking it or emptying the list) must still be on one.
public struct SyncListScenario<Server: HistoryProvidingStore>
where Server.HistoryType.Change: ValueRecordingHistoryChange {
    /// Opens a fresh, empty server store with the given schema.
    let makeServer: (Schema) throws -> Server

    /// A scenario whose seeds run against servers from `makeServer`.
    public init(makeServer: @escaping (Schema) throws -> Server) {
        self.makeServer = makeServer
    }

    /// What one seed did and what it broke.
    public struct Outcome {
        /// What broke the rules above, in words (with the edits made); empty when they hold.
        public var problems: [String] = []
        /// How many lists the edits reversed.
        public var reorders = 0
        /// How many times a device's engine restarted.
        public var restarts = 0
        /// How many pulls the last engines found expired (resynchronised from a full copy).
        public var resynchronisations = 0
        /// The most transactions one history read of an engine returned.
        public var largestHistoryPage = 0
    }

    /// Runs `rounds` rounds of random edits of `model`'s lists with the random `seed`; `schema` holds `model`,
    /// its item and `SyncCursor`. With `trimServerEvery`, the server's history is deleted every that many
    /// rounds, so that devices behind find their tokens expired and resynchronise; with `trimDevicesEvery`, a
    /// device's own history, so that it uploads what it holds. With `secondDeviceOnlyReads`, the second device
    /// never edits (and only its history is deleted): whatever its uploads write to the server beyond its
    /// cursors is a stale value of its own reverting someone's edit, and breaks the rules. With
    /// `historyPageSize`, the engines read history that many transactions at a time.
    public func run<Model: ListOwningModel>(
        _ model: Model.Type, schema: Schema, seed: UInt64, rounds: Int = 30, trimServerEvery: Int? = nil,
        trimDevicesEvery: Int? = nil, secondDeviceOnlyReads: Bool = false, historyPageSize: Int? = nil
    ) throws -> Outcome {
        let server = try makeServer(schema)
        let lab = try SyncLab(server: server)
        defer { lab.remove() }
        let devices = try ["a", "b"].map {
            try lab.device($0, schema: schema, models: [model, Model.Item.self])
        }
        let onServer = try ModelContainer(for: [model], configurations: [ModelConfiguration(store: server)])
        let containers = devices.map(\.container) + [onServer]
        var engines = devices.map(\.engine)
        for engine in engines { engine.testHistoryPageSize = historyPageSize }
        var largestHistoryPage = 0
        var random = SplitMix64(seed: seed)
        var outcome = Outcome()
        var made: Set<String> = []
        var deleted: Set<String> = []
        var unlinked: Set<String> = []
        var log: [String] = []
        func edit(_ editor: Int, _ body: (ModelContext) throws -> Void) throws {
            let context = ModelContext(containers[editor])
            try body(context)
            try context.save()
        }
        try edit(0) { context in
            for name in ["Lisbon", "Oslo"] {
                let owner = Model.make(name: name, day: 1)
                context.insert(owner)
                for index in 0..<3 {
                    owner.append(Model.makeItem(title: "\(name) \(index)"))
                    made.insert("\(name) \(index)")
                }
            }
        }
        for device in devices { try device.sync() }
        for round in 0..<rounds {
            var editor = Int.random(in: 0..<3, using: &random)
            if secondDeviceOnlyReads && editor == 1 { editor = 2 }
            let step = Int.random(in: 0..<10, using: &random)
            let pick = Int.random(in: 0..<100, using: &random)
            let title = "\(editor)-\(round)"
            log.append("\(editor): step \(step) pick \(pick)")
            // Step 8 makes two of the others in one save (a reorder and a move, say), each with its own pick.
            let steps =
                step == 8
                ? [Int.random(in: 0..<8, using: &random), Int.random(in: 0..<8, using: &random)] : [step]
            let picks = steps.indices.map { pick + 37 * $0 }
            if step == 8 { log.append("   as steps \(steps) picks \(picks)") }
            try edit(editor) { context in
                let owners = try context.fetch(FetchDescriptor<Model>()).sorted { $0.name < $1.name }
                var gone: Set<ObjectIdentifier> = []
                for (index, (step, pick)) in zip(steps, picks).enumerated() {
                    let items = try context.fetch(FetchDescriptor<Model.Item>()).sorted {
                        Model.title(of: $0) < Model.title(of: $1)
                    }.filter { !gone.contains(ObjectIdentifier($0)) }
                    let owner = owners[pick % owners.count]
                    let title = index == 0 ? title : "\(title)b"
                    switch step {
                    case 0:
                        owner.append(Model.makeItem(title: title))
                        made.insert(title)
                    case 1:
                        owner.insertFirst(Model.makeItem(title: title))
                        made.insert(title)
                    case 2, 3:
                        owner.reverseList()
                        outcome.reorders += 1
                    case 4 where !items.isEmpty:
                        Model.setTrip(owners[(pick + 1) % owners.count], of: items[pick % items.count])
                    case 5 where !items.isEmpty:
                        unlinked.insert(Model.title(of: items[pick % items.count]))
                        Model.setTrip(nil, of: items[pick % items.count])
                    case 6 where !items.isEmpty:
                        let item = items[pick % items.count]
                        deleted.insert(Model.title(of: item))
                        context.delete(item)
                        gone.insert(ObjectIdentifier(item))
                    case 7:
                        unlinked.formUnion(owner.listedItems.map { Model.title(of: $0) })
                        owner.clearList()
                    case 9:
                        // An owner of a name every editor makes in these rounds unless it holds it: editors that
                        // have not synced make it too, and the server merges theirs into the first (the name is
                        // unique) with both editors' items.
                        let name = "New \(round / 6)"
                        if let held = owners.first(where: { $0.name == name }) {
                            held.append(Model.makeItem(title: title))
                            made.insert(title)
                            break
                        }
                        let target = Model.make(name: name, day: round)
                        context.insert(target)
                        target.append(Model.makeItem(title: title))
                        made.insert(title)
                        // Now and then the new owner also takes an item held already, between two new ones: its
                        // list then names a model made before it between models made with it.
                        if pick % 2 == 1, !items.isEmpty {
                            target.append(items[pick % items.count])
                            target.append(Model.makeItem(title: "\(title)c"))
                            made.insert("\(title)c")
                        }
                    default:
                        break
                    }
                }
            }
            let index = Int.random(in: 0..<2, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: try engines[index].sync()
            case 1: try engines[index].push()
            case 2: try engines[index].pull()
            case 3 where Int.random(in: 0..<3, using: &random) == 0:
                // The device restarts: a new engine reads its cursors from the stores.
                largestHistoryPage = max(largestHistoryPage, engines[index].largestHistoryPage)
                engines[index] = try SyncEngine(
                    local: devices[index].store, server: server, device: devices[index].store.identifier,
                    models: [model, Model.Item.self])
                engines[index].testHistoryPageSize = historyPageSize
                outcome.restarts += 1
            default: break
            }
            if let every = trimServerEvery, round % every == every - 1,
                let newest = try server.fetchHistory(HistoryDescriptor()).last?.token
            {
                try server.deleteHistory(HistoryDescriptor(predicate: HistoryPredicates.through(newest)))
            }
            if let every = trimDevicesEvery, round % every == every - 1 {
                let store = devices[secondDeviceOnlyReads ? 1 : Int.random(in: 0..<2, using: &random)].store
                if let newest = try store.fetchHistory(HistoryDescriptor()).last?.token {
                    try store.deleteHistory(HistoryDescriptor(predicate: HistoryPredicates.through(newest)))
                }
            }
        }
        // Settle: both sync, then the first again (the second's push reaches it).
        for index in [0, 1, 0] { try engines[index].sync() }
        outcome.resynchronisations = engines.map(\.status.resynchronisationCount).reduce(0, +)
        outcome.largestHistoryPage = engines.map(\.largestHistoryPage).reduce(largestHistoryPage, max)

        let stored = try containers.map { try StoredTrips($0, of: model) }
        var problems = Problems()
        problems.expect(
            stored[0] == stored[2] && stored[1] == stored[2],
            "the stores differ:\n\(stored.map(\.description).joined(separator: "\n"))")
        problems.expect(stored[2].inconsistencies.isEmpty, "\(stored[2].inconsistencies)")
        // A device that lost its history before pushing a delete cannot tell it from a model it never pulled:
        // the model stays (Docs/Sync.md). Nothing made may be lost either way.
        let held = Set(stored[2].owners.keys)
        problems.expect(
            trimDevicesEvery == nil
                ? held == made.subtracting(deleted)
                : held.isSuperset(of: made.subtracting(deleted)) && held.isSubset(of: made),
            "items lost \(made.subtracting(deleted).subtracting(held).sorted()) or kept "
                + "\(held.subtracting(made.subtracting(deleted)).sorted()): \(stored[2])")
        // A deleted item a device brought back (above) comes back as that device last held it.
        let offTheirLists = stored[2].owners.filter {
            $0.value == nil && !unlinked.contains($0.key) && !deleted.contains($0.key)
        }.keys
        problems.expect(offTheirLists.isEmpty, "\(offTheirLists.sorted()) lost their list: \(stored[2])")
        if secondDeviceOnlyReads {
            let writes = try server.fetchHistory(HistoryDescriptor()).filter { $0.author == "device:b" }
                .flatMap(\.changes).map(\.changedPersistentIdentifier)
                .filter { $0.entityName != SyncCursor.entityName }
            problems.expect(
                writes.isEmpty, "the device that only reads wrote \(writes.count) models: \(writes)")
        }
        if !problems.list.isEmpty { problems.list.append("edits:\n" + log.joined(separator: "\n")) }
        outcome.problems = problems.list
        return outcome
    }
}
