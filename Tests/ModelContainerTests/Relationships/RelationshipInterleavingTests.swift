import DataStoreCore
import DataStoreModels
import Foundation
import JSONFileStorage
import SampleTrips
import StoreTestSupport
import Testing

/// `TripInterleaving` on JSON file stores: two contexts and two helper processes edit the same trips from their
/// own, often stale, views, and the stored graph must stay consistent after every step.
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
        let seeds = SoakSeeds.range(quick: 200)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "interleaving-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let interleaving = TripInterleaving<Model>(helperArguments: helperArguments) { seed in
            let directory = root.appendingPathComponent("\(seed)")
            let container = try ModelContainer(
                for: [model],
                configurations: [
                    ModelConfiguration(
                        JSONFileStoreConfiguration(name: "trips", directory: directory, durability: .relaxed))
                ])
            return (container, "open \(directory.path)")
        }
        let problems = try interleaving.run(seeds: seeds)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        // The interleavings did reach the cases that matter.
        let counts = interleaving.counts
        print("interleavings of \(model): \(seeds.count) seeds, \(counts)")
        #expect(counts.saves > seeds.count * 5 / 2, "\(counts)")
        #expect(counts.refused > 0, "\(counts)")
        #expect(counts.cascades > seeds.count / 2, "\(counts)")
        #expect(counts.rollbacks > seeds.count / 2, "\(counts)")
        #expect(counts.purges > seeds.count / 2, "\(counts)")
        #expect(counts.purgedItems > seeds.count / 2, "\(counts)")
        #expect(counts.reversals > seeds.count / 2, "\(counts)")
        #expect(counts.clears > seeds.count / 2, "\(counts)")
    }
}
