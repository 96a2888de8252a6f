import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage

/// A trip with a related stay, the shape the relationship metrics fetch.
final class BenchTrip: PersistentModel {
    static let schemaAttributes: [ModelAttribute<BenchTrip>] = [
        .attribute("name", \.name),
        .relationship("stay", \.stay, deleteRule: .cascade, inverse: \BenchStay.trip),
    ]
    var persistentModelID = PersistentIdentifier()
    var name = ""
    @Relationship var stay: BenchStay?
    init() {}
}

/// The stay a trip relates to.
final class BenchStay: PersistentModel {
    static let schemaAttributes: [ModelAttribute<BenchStay>] = [
        .attribute("placeName", \.placeName), .relationship("trip", \.trip),
    ]
    var persistentModelID = PersistentIdentifier()
    var placeName = ""
    @Relationship var trip: BenchTrip?
    init() {}
}

/// The same trip with the stay's name copied into it: the fetch without relationships.
final class FlatTrip: PersistentModel {
    static let schemaAttributes: [ModelAttribute<FlatTrip>] = [
        .attribute("name", \.name), .attribute("placeName", \.placeName),
    ]
    var persistentModelID = PersistentIdentifier()
    var name = ""
    var placeName = ""
    init() {}
}

/// A list owner whose children go with it.
final class BenchParent: PersistentModel {
    static let schemaAttributes: [ModelAttribute<BenchParent>] = [
        .attribute("name", \.name),
        .relationship("children", \.children, deleteRule: .cascade, inverse: \BenchChild.parent),
    ]
    var persistentModelID = PersistentIdentifier()
    var name = ""
    @Relationship var children: [BenchChild] = []
    init() {}
}

/// One of a parent's children.
final class BenchChild: PersistentModel {
    static let schemaAttributes: [ModelAttribute<BenchChild>] = [
        .attribute("index", \.index), .relationship("parent", \.parent),
    ]
    var persistentModelID = PersistentIdentifier()
    var index = 0
    @Relationship var parent: BenchParent?
    init() {}
}

/// Following relationships through the model layer, against the same work without them.
enum RelationshipScenario {
    static func run(_ report: Report, _ sizes: Sizes) throws {
        try fetchOverhead(report, sizes)
        try cascadeDelete(report, sizes)
        try appendOneAtATime(report, sizes)
    }

    /// Build a parent's list of 2,000 children one child at a time, against assigning the whole list once (all
    /// keep every child's `parent` in step): by appending to the list (`parent.children.append(child)`, as the
    /// seeds do), and by setting each child's `parent`.
    static func appendOneAtATime(_ report: Report, _ sizes: Sizes) throws {
        let count = 2_000
        let container = try ModelContainer(
            for: [BenchParent.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "append"))])
        // The context stays alive with its parent, as an app's would while it edits.
        var contexts: [ModelContext] = []
        func fresh() -> (BenchParent, [BenchChild]) {
            let context = ModelContext(container)
            contexts.append(context)
            let parent = BenchParent()
            context.insert(parent)
            let children = (0..<count).map { index in
                let child = BenchChild()
                child.index = index
                return child
            }
            return (parent, children)
        }
        var built: [(BenchParent, [BenchChild])] = []
        /// Times `oneByOne` against assigning the list, each side with a parent and children of its own, made
        /// untimed.
        func measure(_ oneByOne: @escaping (BenchParent, [BenchChild]) -> Void) throws -> (Double, Double) {
            let (candidate, baseline) = Measure.pair(
                repetitions: sizes.repetitions, input: { (fresh(), fresh()) },
                candidate: { input in
                    oneByOne(input.0.0, input.0.1)
                    built.append(input.0)
                },
                baseline: { input in
                    input.1.0.children = input.1.1
                    built.append(input.1)
                })
            try verify(
                built.allSatisfy { parent, children in
                    parent.children.map(ObjectIdentifier.init) == children.map(ObjectIdentifier.init)
                        && children.allSatisfy { $0.parent === parent }
                }, "relationship_append",
                "every list holds its \(count) children in order, each pointing back")
            built = []
            return (candidate.median, baseline.median)
        }
        let (appends, assigned) = try measure { parent, children in
            for child in children { parent.children.append(child) }
        }
        report.metric(
            "relationship_append_2000_vs_assign", appends / assigned, "x", target: "recorded", met: true,
            detail:
                "build a list of \(count) children one append at a time: median \(Report.time(appends)) "
                + "against \(Report.time(assigned)) assigning the list once (each append copies the list, "
                + "as a get and set of any Swift property does)")
        let (owners, assignedAgain) = try measure { parent, children in
            for child in children { child.parent = parent }
        }
        report.metric(
            "relationship_set_owner_2000_vs_assign", owners / assignedAgain, "x", target: "recorded",
            met: true,
            detail:
                "build a list of \(count) children by setting each child's parent: median "
                + "\(Report.time(owners)) against \(Report.time(assignedAgain)) assigning the list once (the "
                + "list is edited where it lies)")
    }

    /// Fetch N trips and read each one's accommodation name, against fetching N trips that hold the name.
    static func fetchOverhead(_ report: Report, _ sizes: Sizes) throws {
        let count = sizes.modelLayerModels
        let related = try ModelContainer(
            for: [BenchTrip.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "rel"))])
        let flat = try ModelContainer(
            for: [FlatTrip.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "flat"))])
        let setup = ModelContext(related)
        let flatSetup = ModelContext(flat)
        var trips: [BenchTrip] = []
        for index in 0..<count {
            let trip = BenchTrip()
            trip.name = "trip \(index)"
            setup.insert(trip)
            trips.append(trip)
            let copy = FlatTrip()
            copy.name = trip.name
            copy.placeName = "place \(index)"
            flatSetup.insert(copy)
        }
        for (index, trip) in trips.enumerated() {
            let stay = BenchStay()
            stay.placeName = "place \(index)"
            trip.stay = stay
        }
        try setup.save()
        try flatSetup.save()

        func readRelated() throws -> [String] {
            try ModelContext(related).fetch(FetchDescriptor<BenchTrip>()).map { $0.stay?.placeName ?? "" }
        }
        func readFlat() throws -> [String] {
            try ModelContext(flat).fetch(FetchDescriptor<FlatTrip>()).map(\.placeName)
        }
        try verify(
            try Set(readRelated()) == Set(readFlat()) && readFlat().count == count, "relationship_fetch",
            "the same \(count) place names")
        // The parts, for the record: each fetch alone, without reading a relationship.
        let parts = try Measure.pair(
            repetitions: sizes.repetitions,
            candidate: { _ = try ModelContext(related).fetch(FetchDescriptor<BenchTrip>()) },
            baseline: { _ = try ModelContext(related).fetch(FetchDescriptor<BenchStay>()) })
        let (candidate, baseline) = try Measure.pair(
            repetitions: sizes.repetitions, candidate: { _ = try readRelated() },
            baseline: { _ = try readFlat() })
        let ratio = candidate.median / baseline.median
        report.metric(
            "relationship_fetch_overhead", ratio, "x", target: "<= 1.5", met: ratio <= 1.5,
            detail:
                "fetch \(count) trips and read each one's accommodation name (two store requests): median "
                + "\(Report.time(candidate.median)) against \(Report.time(baseline.median)) for \(count) trips "
                + "holding the name; the trips alone take \(Report.time(parts.candidate.median)) and the stays alone "
                + "\(Report.time(parts.baseline.median)), so the two fetches are most of the difference")
    }

    /// Delete a parent with N children by its cascade rule (one transaction), against deleting the same N+1
    /// models by naming each in the save.
    static func cascadeDelete(_ report: Report, _ sizes: Sizes) throws {
        let count = sizes.modelLayerModels
        func populated() throws -> (ModelContainer, BenchParent, [BenchChild]) {
            let container = try ModelContainer(
                for: [BenchParent.self],
                configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "cascade"))])
            let context = ModelContext(container)
            let parent = BenchParent()
            parent.name = "parent"
            context.insert(parent)
            var children: [BenchChild] = []
            for index in 0..<count {
                let child = BenchChild()
                child.index = index
                child.parent = nil
                children.append(child)
                context.insert(child)
            }
            parent.children = children
            try context.save()
            return (container, parent, children)
        }
        var transactions: [Int] = []
        var candidateRuns: [Double] = []
        var baselineRuns: [Double] = []
        for _ in 0..<sizes.repetitions {
            let (container, parent, _) = try populated()
            let context = ModelContext(container)
            let target = try context.fetch(FetchDescriptor<BenchParent>())[0]
            _ = parent
            let before = try context.fetchHistory(.init()).count
            candidateRuns.append(
                try Measure.seconds {
                    context.delete(target)
                    try context.save()
                })
            let history = try context.fetchHistory(.init())
            try verify(
                history.count == before + 1 && history.last?.changes.count == count + 1
                    && (try context.fetchCount(FetchDescriptor<BenchChild>())) == 0,
                "cascade_delete", "one transaction of \(count + 1) deletes")
            transactions.append(history.count - before)

            let (other, _, _) = try populated()
            let explicit = ModelContext(other)
            let all = try explicit.fetch(FetchDescriptor<BenchChild>())
            let owner = try explicit.fetch(FetchDescriptor<BenchParent>())[0]
            baselineRuns.append(
                try Measure.seconds {
                    // The same deletes, each named in the request: the rules find nothing left to do.
                    for child in all { explicit.delete(child) }
                    explicit.delete(owner)
                    try explicit.save()
                })
        }
        let candidate = Timing(samples: candidateRuns)
        let baseline = Timing(samples: baselineRuns)
        let ratio = candidate.median / baseline.median
        report.metric(
            "cascade_delete_10k", ratio, "x", target: "recorded", met: true,
            detail:
                "delete a parent with \(count) children by .cascade, one transaction of \(count + 1) deletes: "
                + "median \(Report.time(candidate.median)) against \(Report.time(baseline.median)) for a save "
                + "naming all \(count + 1) deletes")
    }
}
