import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import SampleTrips
import StoreTestSupport
import Testing

/// Two contexts on one container edit lists at random (append, insert at the front, reverse, empty, move an
/// item to another list, take it off its list, delete it, delete a list's owner, batch-delete a list's items),
/// most edits saved at once, the others left pending until a later save merges them; after every step each
/// context without pending changes fetches its owners and items again, and what its models show must be exactly
/// what the store holds: lists in order, both sides of every link.
///
/// Both of the seeds' spellings: the sample's `Trip` (`@Attribute` properties, a plain list) and `PlainTrip`
/// (plain stored properties, an optional list). 100 seeds of 30 steps each in `swift test`;
/// `DATASTORE_SOAK=1` runs 1,000.
@Suite struct ContextRefreshScenarioTests {
    @Test func theSamplesTripsShowTheStore() throws { try fetchesShowTheStore(Trip.self) }

    @Test func theSeedsSpellingShowsTheStore() throws { try fetchesShowTheStore(PlainTrip.self) }

    func fetchesShowTheStore<Model: EditableTrip>(_ model: Model.Type) throws {
        let seeds = SoakSeeds.range(quick: 100)
        var checks = 0
        for seed in seeds {
            let container = try ModelContainer(
                for: [model], configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "trips"))])
            let contexts = [ModelContext(container), ModelContext(container)]
            var random = SplitMix64(seed: UInt64(seed))
            var log: [String] = []
            for step in 0..<30 {
                let editor = Int.random(in: 0..<2, using: &random)
                let edit = Int.random(in: 0..<10, using: &random)
                let pick = Int.random(in: 0..<100, using: &random)
                log.append("\(editor): edit \(edit) pick \(pick)")
                let context = contexts[editor]
                let owners = try context.fetch(FetchDescriptor<Model>()).sorted { $0.name < $1.name }
                let items = try context.fetch(FetchDescriptor<Model.Item>()).sorted {
                    Model.title(of: $0) < Model.title(of: $1)
                }
                let title = "\(editor)-\(step)"
                if owners.isEmpty || edit == 9 {
                    let owner = Model.make(name: "trip \(title)", day: step)
                    context.insert(owner)
                    owner.append(Model.makeItem(title: title))
                } else {
                    let owner = owners[pick % owners.count]
                    switch edit {
                    case 0: owner.append(Model.makeItem(title: title))
                    case 1: owner.insertFirst(Model.makeItem(title: title))
                    case 2: owner.reverseList()
                    case 3: owner.clearList()
                    case 4 where !items.isEmpty:
                        Model.setTrip(owners[(pick + 1) % owners.count], of: items[pick % items.count])
                    case 5 where !items.isEmpty: Model.setTrip(nil, of: items[pick % items.count])
                    case 6 where !items.isEmpty: context.delete(items[pick % items.count])
                    case 7: context.delete(owner)
                    case 8:
                        try context.delete(
                            model: Model.Item.self, where: Model.items(ofTripNamed: owner.name))
                    default: break
                    }
                }
                if Int.random(in: 0..<3, using: &random) > 0 {
                    do {
                        try context.save()
                    } catch {
                        log.append("refused: \(error)")
                        context.rollback()
                    }
                }
                let stored = try StoredTrips(container, of: model)
                for (index, context) in contexts.enumerated() where !context.hasChanges {
                    let shown = try StoredTrips(viewOf: context, of: model)
                    checks += 1
                    #expect(
                        shown == stored,
                        """
                        seed \(seed), context \(index) after step \(step):
                        shown  \(shown)
                        stored \(stored)
                        \(log.joined(separator: "\n"))
                        """)
                    if shown != stored { return }
                }
            }
        }
        #expect(checks > seeds.count * 30, "\(checks) views compared")
    }
}
