import Foundation
import StoreTestSupport
import Testing

@testable import DataStoreCore
@testable import DataStoreKit

/// The native pushdown a database store would run, simulated with `SnapshotValue.satisfies`, agrees with
/// `Predicate.evaluate` whenever the analysis says it is exact; otherwise its constraints are still
/// necessary conditions.
@Suite struct PushdownPropertyTests {
    typealias Generator = RandomPredicates.Generator

    @Test func exactPushdownEqualsEvaluationOverFiveHundredRandomPredicates() throws {
        var random = Generator(seed: 2026)
        var exactCount = 0
        for round in 0..<500 {
            let gadgets = (0..<40).map { RandomPredicates.randomGadget($0, &random) }
            let pushable = round % 4 != 3
            let predicate = RandomPredicates.randomPredicate(&random, pushable: pushable)
            let bounds = ModelPredicateBounds<Gadget>(predicate)
            #expect(bounds.isExact == pushable, "round \(round)")
            let evaluated = try Set(gadgets.filter { try predicate.evaluate($0) }.map(\.persistentModelID))
            let native = Set(
                gadgets.filter { gadget in
                    let values = gadget.snapshotValues
                    return bounds.attributeConstraints.allSatisfy {
                        (values[$0.name] ?? .null).satisfies($0.relation, $0.value)
                    }
                }
                .map(\.persistentModelID))
            if bounds.isExact {
                exactCount += 1
                #expect(native == evaluated, "round \(round): the native pushdown and evaluate differ")
            } else {
                // Not exact: the constraints are necessary conditions, so a store narrows and evaluates.
                #expect(evaluated.isSubset(of: native), "round \(round): a constraint excluded a match")
            }
        }
        #expect(exactCount >= 350)
    }

    @Test func sortAndLimitPushDownOnlyWhenAStoreCanReproduceThem() {
        let plain = FetchPushdown(
            FetchDescriptor<Gadget>(
                predicate: #Predicate { $0.count > 1 }, sortBy: [SortDescriptor(\.name, order: .reverse)],
                fetchLimit: 5))
        #expect(plain.isExact)
        #expect(plain.sort == [.init(attribute: "name", ascending: false)])
        #expect(plain.limit == 5 && plain.offset == 0)
        let lexical = FetchPushdown(
            FetchDescriptor<Gadget>(sortBy: [SortDescriptor(\.name, comparator: .lexical)]))
        #expect(lexical.isExact)
        // A key path that is no attribute (a computed property) can only be sorted in Swift.
        let computed = FetchPushdown(FetchDescriptor<Gadget>(sortBy: [SortDescriptor(\.nameLength)]))
        #expect(computed.sort == nil && !computed.isExact)
        let opaque = FetchPushdown(FetchDescriptor<Gadget>(predicate: #Predicate { $0.name.contains("a") }))
        #expect(!opaque.isExact && opaque.bounds.attributeConstraints.isEmpty)
    }
}
