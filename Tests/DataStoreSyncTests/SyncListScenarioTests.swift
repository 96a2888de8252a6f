import DataStoreCore
import DataStoreModels
import DataStoreSync
import Foundation
import InMemoryStorage
import StoreTestSupport
import Testing

/// Two devices and the server's own app edit trips' item lists at random (append, insert at the front,
/// reverse, move an item to another trip, take it off its trip, delete it), and the devices push, pull or
/// sync in random order, without previous values on the
/// lists, so that the order travels as `PushedListOrder` describes. At the end every device and the server
/// hold the same trips with their lists in the same order, both sides of every link agree, and every item
/// made and not deleted is still held.
///
/// 60 seeds of 30 rounds in `swift test`; `DATASTORE_SOAK=1` runs 600.
@Suite struct SyncListScenarioTests {
    @Test func devicesEditingListsConverge() throws {
        let seeds = ProcessInfo.processInfo.environment["DATASTORE_SOAK"] == nil ? 60 : 600
        var reorders = 0
        for seed in 0..<seeds {
            let server = try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips))
            let lab = try SyncLab(server: server)
            defer { lab.remove() }
            let devices = [try lab.device("a"), try lab.device("b")]
            let onServer = try ModelContainer(
                for: [SyncTrip.self, SyncItem.self], configurations: [ModelConfiguration(store: server)])
            func edit(_ editor: Int, _ body: (ModelContext) throws -> Void) throws {
                guard editor == 2 else { return try devices[editor].edit(body) }
                let context = ModelContext(onServer)
                try body(context)
                try context.save()
            }
            var random = SplitMix64(seed: UInt64(seed))
            var made: Set<String> = []
            var deleted: Set<String> = []
            var log: [String] = []
            try devices[0].edit { context in
                for name in ["Lisbon", "Oslo"] {
                    let trip = SyncTrip(name: name)
                    context.insert(trip)
                    for index in 0..<3 {
                        trip.items.append(SyncItem(title: "\(name) \(index)"))
                        made.insert("\(name) \(index)")
                    }
                }
            }
            for device in devices { try device.sync() }
            for round in 0..<30 {
                let index = Int.random(in: 0..<3, using: &random)
                let step = Int.random(in: 0..<8, using: &random)
                let pick = Int.random(in: 0..<100, using: &random)
                let title = "\(index)-\(round)"
                log.append("\(index): step \(step) pick \(pick)")
                try edit(index) { context in
                    let trips = try context.fetch(FetchDescriptor<SyncTrip>()).sorted { $0.name < $1.name }
                    let items = try context.fetch(FetchDescriptor<SyncItem>()).sorted { $0.title < $1.title }
                    let trip = trips[pick % trips.count]
                    switch step {
                    case 0:
                        trip.items.append(SyncItem(title: title))
                        made.insert(title)
                    case 1:
                        trip.items.insert(SyncItem(title: title), at: 0)
                        made.insert(title)
                    case 2, 3:
                        trip.items.reverse()
                        reorders += 1
                    case 4 where !items.isEmpty:
                        items[pick % items.count].trip = trips[(pick + 1) % trips.count]
                    case 5 where !items.isEmpty:
                        items[pick % items.count].trip = nil
                    case 6 where !items.isEmpty:
                        let item = items[pick % items.count]
                        deleted.insert(item.title)
                        context.delete(item)
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

            let states = try devices.map { try $0.state() } + [SyncLab<InMemoryDataStore>.state(of: server)]
            #expect(
                states[0] == states[2] && states[1] == states[2],
                "seed \(seed): the stores differ\n\(states)\n\(log.joined(separator: "\n"))")
            let context = ModelContext(devices[0].container)
            let items = try context.fetch(FetchDescriptor<SyncItem>())
            #expect(Set(items.map(\.title)) == made.subtracting(deleted), "seed \(seed): items lost or kept")
            for trip in try context.fetch(FetchDescriptor<SyncTrip>()) {
                #expect(
                    trip.items.allSatisfy { $0.trip === trip },
                    "seed \(seed): \(trip.name) lists others' items")
                #expect(Set(trip.items.map(\.title)).count == trip.items.count, "seed \(seed): listed twice")
            }
            for item in items where item.trip != nil {
                #expect(
                    item.trip?.items.contains { $0 === item } == true,
                    "seed \(seed): \(item.title) is missing from its trip's list")
            }
        }
        #expect(reorders > seeds * 3, "the edits reordered \(reorders) lists")
    }
}
