import DataStoreCore
import DataStoreModels
import DataStoreSync
import Foundation
import InMemoryStorage
import StoreTestSupport
import Testing

/// Two devices and the server's own app edit lists at random (append, insert at the front, reverse, empty,
/// move an item to another list, take it off its list, delete it), and the devices push, pull or sync in random
/// order. At the end every device and the server hold the same lists in the same order, both sides of every
/// link agree, every item made and not deleted is still held, and every item no edit took off its list (by
/// unlinking it or emptying the list) is still on one.
///
/// Two spellings: trips whose items keep no previous values (the order travels as `PushedListOrder`
/// describes), and playlists whose songs do (the list is pushed as an edit with its baseline).
/// 60 seeds of 30 rounds each in `swift test`; `DATASTORE_SOAK=1` runs 600.
@Suite struct SyncListScenarioTests {
    @Test func listsWithoutPreviousValuesConverge() throws {
        try devicesEditingListsConverge(SyncTrip.self, schema: SyncSchemas.trips)
    }

    @Test func listsWithPreviousValuesConverge() throws {
        try devicesEditingListsConverge(
            Playlist.self, schema: Schema([Playlist.self, Song.self, SyncCursor.self]))
    }

    func devicesEditingListsConverge<Model: ListOwningModel>(_ model: Model.Type, schema: Schema) throws {
        let seeds = ProcessInfo.processInfo.environment["DATASTORE_SOAK"] == nil ? 60 : 600
        var reorders = 0
        for seed in 0..<seeds {
            let server = try InMemoryDataStore(.init(name: "server", schema: schema))
            let lab = try SyncLab(server: server)
            defer { lab.remove() }
            let devices = try ["a", "b"].map {
                try lab.device($0, schema: schema, models: [model, Model.Item.self])
            }
            let onServer = try ModelContainer(
                for: [model], configurations: [ModelConfiguration(store: server)])
            let containers = devices.map(\.container) + [onServer]
            var random = SplitMix64(seed: UInt64(seed))
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
            for round in 0..<30 {
                let editor = Int.random(in: 0..<3, using: &random)
                let step = Int.random(in: 0..<9, using: &random)
                let pick = Int.random(in: 0..<100, using: &random)
                let title = "\(editor)-\(round)"
                log.append("\(editor): step \(step) pick \(pick)")
                try edit(editor) { context in
                    let owners = try context.fetch(FetchDescriptor<Model>()).sorted { $0.name < $1.name }
                    let items = try context.fetch(FetchDescriptor<Model.Item>()).sorted {
                        Model.title(of: $0) < Model.title(of: $1)
                    }
                    let owner = owners[pick % owners.count]
                    switch step {
                    case 0:
                        owner.append(Model.makeItem(title: title))
                        made.insert(title)
                    case 1:
                        owner.insertFirst(Model.makeItem(title: title))
                        made.insert(title)
                    case 2, 3:
                        owner.reverseList()
                        reorders += 1
                    case 4 where !items.isEmpty:
                        Model.setTrip(owners[(pick + 1) % owners.count], of: items[pick % items.count])
                    case 5 where !items.isEmpty:
                        unlinked.insert(Model.title(of: items[pick % items.count]))
                        Model.setTrip(nil, of: items[pick % items.count])
                    case 6 where !items.isEmpty:
                        let item = items[pick % items.count]
                        deleted.insert(Model.title(of: item))
                        context.delete(item)
                    case 7:
                        unlinked.formUnion(owner.listedItems.map { Model.title(of: $0) })
                        owner.clearList()
                    default:
                        break
                    }
                }
                let device = devices[Int.random(in: 0..<2, using: &random)]
                switch Int.random(in: 0..<4, using: &random) {
                case 0: try device.sync()
                case 1: try device.engine.push()
                case 2: try device.engine.pull()
                default: break
                }
            }
            // Settle: both sync, then the first again (the second's push reaches it).
            for device in devices + [devices[0]] { try device.sync() }

            let stored = try containers.map { try StoredTrips($0, of: model) }
            let trail = log.joined(separator: "\n")
            #expect(
                stored[0] == stored[2] && stored[1] == stored[2],
                "seed \(seed): the stores differ\n\(stored.map(\.description).joined(separator: "\n"))\n\(trail)"
            )
            #expect(stored[2].inconsistencies.isEmpty, "seed \(seed): \(stored[2].inconsistencies)\n\(trail)")
            #expect(
                Set(stored[2].owners.keys) == made.subtracting(deleted),
                "seed \(seed): items lost or kept: \(stored[2])\n\(trail)")
            let offTheirLists = stored[2].owners.filter { $0.value == nil && !unlinked.contains($0.key) }.keys
            #expect(
                offTheirLists.isEmpty, "seed \(seed): \(offTheirLists.sorted()) lost their list\n\(trail)")
        }
        #expect(reorders > seeds * 3, "the edits reordered \(reorders) lists")
    }
}
