import DataStoreCore
import DataStoreKit
import Foundation
import Testing

/// Rows an index picks by an equality that is the whole predicate, and rows picked by their identifiers, are
/// the answer without being checked again: it must be the answer the predicate gives, on every kind of value
/// (NaN, which the index files under itself but equals nothing; canonically equivalent strings; `nil`), and a
/// predicate with more than the index decides must still be checked.
@Suite struct DecidedCandidatesTests {
    static let schema = Schema(entities: [
        .init(
            name: "Gauge", attributes: [.init(name: "score"), .init(name: "label")],
            indexes: [["score"], ["label"]])
    ])

    struct Gauge: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Gauge>] = [
            .attribute("score", \.score), .attribute("label", \.label),
        ]
        var persistentModelID = PersistentIdentifier()
        var score: Double?
        var label = ""
        init() {}
    }

    static let scores: [Double?] = [1, .nan, nil, 2, 1, -0.0, 0, .nan]
    static let labels = ["caf\u{E9}", "cafe\u{301}", "a", "a", "b", "caf\u{E9}", "b", "a"]

    static func id(_ key: String) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: "gauges", entityName: "Gauge", primaryKey: key)
    }

    static func table() throws -> SnapshotTable {
        var table = SnapshotTable(storeIdentifier: "gauges", schema: schema)
        let rows = zip(scores, labels).enumerated().map { index, pair in
            DataStoreSnapshot(
                persistentIdentifier: id("g\(index)"),
                values: ["score": pair.0.map(SnapshotValue.double) ?? .null, "label": .string(pair.1)])
        }
        table.apply(try table.plan(DataStoreSaveChangesRequest(inserted: rows)))
        return table
    }

    /// The keys `predicate` matches, through the table's candidates, and over every row checked one by one.
    static func answers(_ predicate: Predicate<Gauge>, in table: SnapshotTable) throws -> (
        picked: [String], checked: [String], decided: Bool
    ) {
        let descriptor = FetchDescriptor<Gauge>(predicate: predicate)
        let bounds = ModelPredicateBounds<Gauge>(predicate)
        let candidates = table.selectCandidates(for: descriptor, bounds: bounds)
        let picked = try SnapshotQuery.run(
            descriptor, candidates: candidates, storeIdentifier: "gauges", bounds: bounds)
        let checked = try SnapshotQuery.run(
            descriptor, over: Array(table.rows(of: "Gauge")), storeIdentifier: "gauges")
        return (
            picked.map(\.persistentIdentifier.primaryKey), checked.map(\.persistentIdentifier.primaryKey),
            candidates.satisfyBounds
        )
    }

    @Test func anIndexEqualityAnswersAsThePredicateDoes() throws {
        let table = try Self.table()
        for score in Self.scores + [3] {
            let (picked, checked, decided) = try Self.answers(#Predicate { $0.score == score }, in: table)
            #expect(picked == checked, "score == \(String(describing: score))")
            #expect(decided == !(score?.isNaN ?? false), "score == \(String(describing: score))")
        }
        for label in Self.labels {
            let (picked, checked, decided) = try Self.answers(#Predicate { $0.label == label }, in: table)
            #expect(picked == checked, "label == \(label)")
            #expect(decided)
        }
        // The index decides only its own comparison: the label is still checked.
        let (picked, checked, decided) = try Self.answers(
            #Predicate { $0.score == 1 && $0.label == "b" }, in: table)
        #expect(picked == checked)
        #expect(picked == ["g4"])
        #expect(!decided)
    }

    @Test func rowsPickedByTheirIdentifiersAreTheAnswer() throws {
        let table = try Self.table()
        for keys in [["g1", "g3", "missing"], (0..<8).map { "g\($0)" }] {
            let ids = Set(keys.map(Self.id)).union([
                PersistentIdentifier(storeIdentifier: "gauges", entityName: "Other", primaryKey: "g2")
            ])
            let (picked, checked, decided) = try Self.answers(
                #Predicate { ids.contains($0.persistentModelID) }, in: table)
            #expect(picked == checked)
            #expect(decided)
        }
    }
}
