import DataStoreCore
import DataStoreModels
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

/// The same note with plain stored properties: a context compares every tracked one on each save (the
/// fallback, and how every save worked before change tracking).
final class PlainTrackedNote: PersistentModel {
    static let schemaAttributes: [ModelAttribute<PlainTrackedNote>] = [
        .attribute("title", \.title), .attribute("body", \.body), .attribute("rank", \.rank),
    ]
    var persistentModelID = PersistentIdentifier()
    var title = ""
    var body = ""
    var rank = 0
    init() {}
}

/// A note type the scenario can run over.
protocol BenchmarkNote: PersistentModel, AnyObject {
    var title: String { get set }
    var body: String { get set }
    var rank: Int { get set }
}

extension TrackedNote: BenchmarkNote {}
extension PlainTrackedNote: BenchmarkNote {}

/// The cost of a one-change save in a context that tracks 40,000 unchanged models, against the same save in a
/// context that tracks only the model it changes (issue: saves in O(changed)).
enum ChangeSetScenario {
    static let tracked = 40_000
    static let savesPerSample = 200

    static func run(_ report: Report, _ sizes: Sizes) throws {
        let (candidate, baseline) = try measure(TrackedNote.self, sizes)
        let ratio = candidate / baseline
        report.metric(
            "save_with_40k_tracked_vs_1", ratio, "x", target: "<= 1.5", met: ratio <= 1.5,
            detail: "@Attribute models: one-change save with \(tracked) tracked unchanged models: median "
                + "\(Report.time(candidate)); with one tracked model: \(Report.time(baseline))")
        let (plain, plainBaseline) = try measure(PlainTrackedNote.self, sizes, saves: 5)
        report.metric(
            "save_with_40k_tracked_vs_1_plain_properties", plain / plainBaseline, "x",
            detail: "models with plain stored properties (compared one by one): median \(Report.time(plain)) "
                + "against \(Report.time(plainBaseline))")
    }

    /// Median seconds of one one-change save with `tracked` models tracked, and with one.
    static func measure<Note: BenchmarkNote>(_: Note.Type, _ sizes: Sizes, saves: Int = savesPerSample) throws
        -> (Double, Double)
    {
        let container = try ModelContainer(
            for: [Note.self], configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "bench"))])
        let writer = ModelContext(container)
        for index in 0..<tracked {
            let note = Note()
            note.title = "note \(index)"
            note.rank = index
            writer.insert(note)
        }
        try writer.save()
        let crowded = ModelContext(container)
        let crowd = try crowded.fetch(FetchDescriptor<Note>())
        try verify(crowd.count == tracked, "changesets", "\(crowd.count) models tracked")
        let target = try require(crowd.first { $0.rank == 1 })
        // The baseline context tracks only the model it changes.
        let lone = ModelContext(container)
        let only = try require(
            try lone.fetch(FetchDescriptor<Note>(predicate: #Predicate { $0.rank == 2 })).first)

        var round = 0
        let (candidate, baseline) = try Measure.pair(
            repetitions: sizes.repetitions,
            candidate: {
                for _ in 0..<saves {
                    round += 1
                    target.body = "v\(round)"
                    try crowded.save()
                }
            },
            baseline: {
                for _ in 0..<saves {
                    round += 1
                    only.body = "v\(round)"
                    try lone.save()
                }
            })
        // Both sides saved what they changed.
        let stored = try ModelContext(container).fetch(
            FetchDescriptor<Note>(predicate: #Predicate { $0.rank < 3 }))
        try verify(
            Set(stored.filter { $0.rank > 0 }.map(\.body)) == [target.body, only.body] && !crowded.hasChanges
                && !lone.hasChanges,
            "changesets", "both contexts' last saves stored")
        return (candidate.median / Double(saves), baseline.median / Double(saves))
    }

    private static func require<T>(_ value: T?) throws -> T {
        guard let value else {
            throw MismatchError(scenario: "changesets", what: "a fixture model was not found")
        }
        return value
    }
}
