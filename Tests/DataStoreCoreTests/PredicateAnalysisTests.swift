import Foundation
import Testing

@testable import DataStoreCore
@testable import DataStoreKit

/// A transaction type with only what the analysis looks at.
struct ProbeToken: StoreHistoryToken {
    var storeIdentifier: String
    var epoch: UUID
    var sequence: Int64
    init(storeIdentifier: String, epoch: UUID, sequence: Int64) {
        self.storeIdentifier = storeIdentifier
        self.epoch = epoch
        self.sequence = sequence
    }
    func encode(to encoder: any Encoder) throws {
        try HistoryTokenCoding.encode(self, kind: "probe", to: encoder)
    }
    init(from decoder: any Decoder) throws {
        self = try HistoryTokenCoding.decode(Self.self, kind: "probe", from: decoder)
    }
}

struct ProbeChange: HistoryChange {
    var changedPersistentIdentifier = PersistentIdentifier()
    var changeIdentifier: Int64 = 0
    var transactionIdentifier: Int64 = 0
    var kind = HistoryChangeKind.insert
    var updatedAttributes: [String] = []
    var tombstone: [String: SnapshotValue]?
}

struct ProbeTransaction: HistoryTransaction {
    static let keyPaths = HistoryKeyPaths<ProbeTransaction>(
        token: \.token, timestamp: \.timestamp, transactionIdentifier: \.transactionIdentifier,
        author: \.author)
    var timestamp: Date
    var changes: [ProbeChange] = []
    var token: ProbeToken
    var transactionIdentifier: Int64
    var storeIdentifier = "probe"
    var author: String?
    var bundleIdentifier = "tests"
    var processIdentifier = "1"
    var rank = 0
}

@Suite struct PredicateAnalysisTests {
    static let epoch = UUID()
    static func token(_ sequence: Int64) -> ProbeToken {
        ProbeToken(storeIdentifier: "probe", epoch: epoch, sequence: sequence)
    }

    @Test func conjunctsYieldTokenAuthorAndTimeBounds() {
        let token = Self.token(5)
        let author = "widget"
        let since = Date(timeIntervalSinceReferenceDate: 100)
        let bounds = HistoryPredicateBounds<ProbeTransaction>(
            #Predicate {
                $0.token > token && ($0.author == author && since <= $0.timestamp)
                    && $0.transactionIdentifier < 90
            })
        #expect(bounds.lowerToken?.value == token)
        #expect(bounds.lowerToken?.isInclusive == false)
        #expect(bounds.author == "widget")
        #expect(bounds.lowerTimestamp?.value == since)
        #expect(bounds.lowerTimestamp?.isInclusive == true)
        #expect(bounds.upperTransactionIdentifier?.value == 90)
        #expect(bounds.upperTransactionIdentifier?.isInclusive == false)
        #expect(bounds.tokens == [token])
    }

    @Test func disjunctionsAndNegationsContributeNothing() {
        let token = Self.token(5)
        let either = HistoryPredicateBounds<ProbeTransaction>(#Predicate { $0.token > token || $0.rank == 1 })
        #expect(either.lowerToken == nil)
        let negated = HistoryPredicateBounds<ProbeTransaction>(#Predicate { !($0.token > token) })
        #expect(negated.lowerToken == nil)
        // The token still gets validated wherever it appears in a conjunct.
        #expect(HistoryPredicateBounds<ProbeTransaction>(nil).tokens.isEmpty)
    }

    @Test func theTighterOfTwoBoundsWins() {
        let low = Self.token(3)
        let high = Self.token(7)
        let bounds = HistoryPredicateBounds<ProbeTransaction>(
            #Predicate { $0.token >= low && $0.token > high && $0.token <= high })
        #expect(bounds.lowerToken?.value == high)
        #expect(bounds.lowerToken?.isInclusive == false)
        #expect(bounds.upperToken?.value == high)
        #expect(bounds.upperToken?.isInclusive == true)
    }

    /// The query's seek range equals a brute-force filter for every bound shape.
    @Test func candidateRangesContainExactlyWhatAFilterKeeps() throws {
        let base = Date(timeIntervalSinceReferenceDate: 0)
        let log = (1...60).map { sequence in
            ProbeTransaction(
                timestamp: base.addingTimeInterval(Double(sequence / 3)), token: Self.token(Int64(sequence)),
                transactionIdentifier: Int64(sequence), author: sequence.isMultiple(of: 2) ? "a" : "b",
                rank: sequence % 5)
        }
        let query = HistoryQuery<ProbeTransaction>(
            storeIdentifier: "probe", epoch: Self.epoch, oldestValidSequence: 0, latestSequence: 60)
        let t20 = Self.token(20)
        let t40 = Self.token(40)
        let at5 = base.addingTimeInterval(5)
        let at12 = base.addingTimeInterval(12)
        let predicates: [Predicate<ProbeTransaction>] = [
            #Predicate { $0.token > t20 },
            #Predicate { $0.token >= t20 && $0.token < t40 },
            #Predicate { $0.timestamp > at5 && $0.timestamp <= at12 },
            #Predicate { $0.timestamp >= at5 && $0.author == "a" && $0.rank != 0 },
            #Predicate { $0.transactionIdentifier >= 10 && $0.transactionIdentifier <= 12 },
            #Predicate { $0.rank == 2 || $0.token < t20 },
        ]
        for predicate in predicates {
            var statistics = HistoryQueryStatistics()
            let sought = try query.run(
                HistoryDescriptor(predicate: predicate), over: log, statistics: &statistics)
            let filtered = try log.filter { try predicate.evaluate($0) }
            #expect(sought.map(\.transactionIdentifier) == filtered.map(\.transactionIdentifier))
            let bounds = HistoryPredicateBounds<ProbeTransaction>(predicate)
            let range = query.candidateRange(in: log, bounds: bounds)
            #expect(statistics.examinedTransactions == range.count)
        }
    }

    @Test func modelBoundsNameAttributesAndTheIdentifier() {
        let id = PersistentIdentifier(storeIdentifier: "s", entityName: "Sample", primaryKey: "1")
        let from = 10.0
        let bounds = ModelPredicateBounds<Sample>(
            #Predicate { $0.value >= from && $0.persistentModelID == id && $0.label != "x" })
        #expect(bounds.identifier == id)
        #expect(
            bounds.attributeConstraints == [
                .init(name: "value", relation: .greaterThanOrEqual, value: .double(10)),
                .init(name: "label", relation: .notEqual, value: .string("x")),
            ])
        #expect(bounds.isExact)
        // A PersistentIdentifier-typed attribute is not mistaken for the model's own identifier.
        let other = ModelPredicateBounds<Sample>(#Predicate { $0.link == id })
        #expect(other.identifier == nil)
        #expect(other.attributeConstraints.map(\.name) == ["link"])
    }

    /// The walk is worked out once per expression type and cached: predicates of one type must still each
    /// yield their own key paths and constants, in either operand order, and a type that is no comparison none.
    @Test func predicatesOfOneShapeKeepTheirOwnKeyPathsAndConstants() {
        func equal(_ name: String) -> ModelPredicateBounds<Sample> {
            ModelPredicateBounds(#Predicate { $0.label == name })
        }
        func reversed(_ limit: Double) -> ModelPredicateBounds<Sample> {
            ModelPredicateBounds(#Predicate { limit < $0.value })
        }
        for round in 0..<3 {
            #expect(
                equal("a\(round)").attributeConstraints == [
                    .init(name: "label", relation: .equal, value: .string("a\(round)"))
                ])
            // Same expression type as `equal` (a String key path compared with a String), another key path.
            let other = ModelPredicateBounds<Sample>(
                #Predicate { $0.label == "b" && $0.label != "c\(round)" })
            #expect(other.attributeConstraints.map(\.value) == [.string("b"), .string("c\(round)")])
            #expect(other.attributeConstraints.map(\.relation) == [.equal, .notEqual])
            #expect(
                reversed(Double(round)).attributeConstraints
                    == [.init(name: "value", relation: .greaterThan, value: .double(Double(round)))])
            let labels = ["x", "y\(round)"]
            let membership = ModelPredicateBounds<Sample>(#Predicate { labels.contains($0.label) })
            #expect(membership.attributeMembership?.name == "label")
            #expect(membership.attributeMembership?.values == [.string("x"), .string("y\(round)")])
            let neither = ModelPredicateBounds<Sample>(#Predicate { $0.label.isEmpty })
            #expect(neither.attributeConstraints.isEmpty && !neither.isExact)
        }
        // A key path made at run time names the attribute as the literal one does.
        let made = (\Sample.self as PartialKeyPath<Sample>).appending(path: \Sample.label) as AnyKeyPath?
        #expect(made.flatMap { ModelTypeFacts.attributeName(for: $0, in: Sample.self) } == "label")
        #expect(ModelTypeFacts.attributeName(for: \Sample.persistentModelID, in: Sample.self) == nil)
    }
}

struct Sample: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Sample>] = [
        .attribute("value", \.value), .attribute("label", \.label), .attribute("link", \.link),
    ]
    var persistentModelID = PersistentIdentifier()
    var value = 0.0
    var label = ""
    var link: PersistentIdentifier?
    init() {}
}
