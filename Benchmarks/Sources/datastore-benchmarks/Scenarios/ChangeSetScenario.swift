import DataStoreCore
import Foundation
import InMemoryStorage

/// A note whose properties report their changes (`@Attribute`), so a context compares only what changed.
final class TrackedNote: PersistentModel {
    static let schemaAttributes: [ModelAttribute<TrackedNote>] = [
        .attribute("title", \.title), .attribute("body", \.body), .attribute("rank", \.rank),
    ]
    var persistentModelID = PersistentIdentifier()
    @Attribute var title = ""
    @Attribute var body = ""
    @Attribute var rank = 0
    init() {}
}

/// The cost of a one-change save in a context that tracks 40,000 unchanged models, against the same save in a
/// context that tracks only the model it changes (issue: saves in O(changed)).
enum ChangeSetScenario {
    static let tracked = 40_000
    static let savesPerSample = 200

    static func run(_ report: Report, _ sizes: Sizes) throws {
        let container = try ModelContainer(
            for: [TrackedNote.self], configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "bench"))])
        let writer = ModelContext(container)
        for index in 0..<tracked {
            let note = TrackedNote()
            note.title = "note \(index)"
            note.rank = index
            writer.insert(note)
        }
        try writer.save()
        let crowded = ModelContext(container)
        let crowd = try crowded.fetch(FetchDescriptor<TrackedNote>())
        try verify(crowd.count == tracked, "changesets", "\(crowd.count) models tracked")
        let target = try require(crowd.first { $0.rank == 1 })
        let alone = ModelContext(container)
        let single = try require(
            try alone.fetch(FetchDescriptor<TrackedNote>(predicate: #Predicate { $0.rank == 2 })).first)

        var round = 0
        let (candidate, baseline) = try Measure.pair(
            repetitions: sizes.repetitions,
            candidate: {
                for _ in 0..<savesPerSample {
                    round += 1
                    target.body = "v\(round)"
                    try crowded.save()
                }
            },
            baseline: {
                for _ in 0..<savesPerSample {
                    round += 1
                    single.body = "v\(round)"
                    try alone.save()
                }
            })
        // Both sides saved what they changed.
        let check = ModelContext(container)
        let stored = try check.fetch(FetchDescriptor<TrackedNote>(predicate: #Predicate { $0.rank < 3 }))
        try verify(
            Set(stored.filter { $0.rank > 0 }.map(\.body)) == [target.body, single.body] && !crowded.hasChanges
                && !alone.hasChanges,
            "changesets", "both contexts' last saves stored")
        let ratio = candidate.median / baseline.median
        report.metric(
            "save_with_40k_tracked_vs_1", ratio, "x", target: "<= 1.5", met: ratio <= 1.5,
            detail: "one-change save with \(tracked) tracked unchanged models: median "
                + "\(Report.time(candidate.median / Double(savesPerSample))); with one tracked model: "
                + "\(Report.time(baseline.median / Double(savesPerSample)))")
    }

    private static func require<T>(_ value: T?) throws -> T {
        guard let value else { throw MismatchError(scenario: "changesets", what: "a fixture model was not found") }
        return value
    }
}
