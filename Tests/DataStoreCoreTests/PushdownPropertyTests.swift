import Foundation
import Testing

@testable import DataStoreCore

/// A model with every kind of attribute the pushdown compares.
struct Gadget: PersistentModel, Hashable {
    static let schemaAttributes: [ModelAttribute<Gadget>] = [
        .attribute("count", \.count), .attribute("weight", \.weight), .attribute("name", \.name),
        .attribute("active", \.active), .attribute("nickname", \.nickname),
    ]
    var persistentModelID = PersistentIdentifier()
    var count = 0
    var weight = 0.0
    var name = ""
    var active = false
    var nickname: String?
    var nameLength: Int { name.count }
    init() {}
}

/// The native pushdown a database store would run, simulated with `SnapshotValue.satisfies`, agrees with
/// `Predicate.evaluate` whenever the analysis says it is exact; otherwise its constraints are still
/// necessary conditions.
@Suite struct PushdownPropertyTests {
    typealias Expression = any StandardPredicateExpression<Bool>

    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let names = ["", "a", "b", "ab", "B", "é", "e\u{301}", "zz"]
    static let weights: [Double] = [-1, 0, -0.0, 0.5, 2, .nan, .infinity]

    static func randomGadget(_ index: Int, _ random: inout Generator) -> Gadget {
        var gadget = Gadget()
        gadget.persistentModelID = PersistentIdentifier(
            storeIdentifier: "s", entityName: "Gadget", primaryKey: "g\(index)")
        gadget.count = Int.random(in: -3...3, using: &random)
        gadget.weight = weights.randomElement(using: &random)!
        gadget.name = names.randomElement(using: &random)!
        gadget.active = Bool.random(using: &random)
        gadget.nickname = Bool.random(using: &random) ? nil : names.randomElement(using: &random)
        return gadget
    }

    static func compare<Value: Comparable & Codable & Sendable>(
        _ variable: PredicateExpressions.Variable<Gadget>, _ keyPath: any KeyPath<Gadget, Value> & Sendable,
        _ constant: Value, _ operation: Int
    ) -> Expression {
        let lhs = PredicateExpressions.build_KeyPath(root: variable, keyPath: keyPath)
        let rhs = PredicateExpressions.build_Arg(constant)
        switch operation {
        case 0: return PredicateExpressions.build_Equal(lhs: lhs, rhs: rhs)
        case 1: return PredicateExpressions.build_NotEqual(lhs: lhs, rhs: rhs)
        case 2: return PredicateExpressions.build_Comparison(lhs: lhs, rhs: rhs, op: .lessThan)
        case 3: return PredicateExpressions.build_Comparison(lhs: lhs, rhs: rhs, op: .lessThanOrEqual)
        case 4:
            // The constant on the left: `c > $0.x`.
            return PredicateExpressions.build_Comparison(lhs: rhs, rhs: lhs, op: .greaterThan)
        default: return PredicateExpressions.build_Comparison(lhs: lhs, rhs: rhs, op: .greaterThanOrEqual)
        }
    }

    static func equality<Value: Equatable & Codable & Sendable>(
        _ variable: PredicateExpressions.Variable<Gadget>, _ keyPath: any KeyPath<Gadget, Value> & Sendable,
        _ constant: Value, _ equal: Bool
    ) -> Expression {
        let lhs = PredicateExpressions.build_KeyPath(root: variable, keyPath: keyPath)
        let rhs = PredicateExpressions.build_Arg(constant)
        return equal
            ? PredicateExpressions.build_Equal(lhs: lhs, rhs: rhs)
            : PredicateExpressions.build_NotEqual(lhs: lhs, rhs: rhs)
    }

    /// One pushable comparison on a random attribute.
    static func leaf(_ variable: PredicateExpressions.Variable<Gadget>, _ random: inout Generator)
        -> Expression
    {
        let operation = Int.random(in: 0..<6, using: &random)
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return compare(variable, \Gadget.count, Int.random(in: -3...3, using: &random), operation)
        case 1: return compare(variable, \Gadget.weight, weights.randomElement(using: &random)!, operation)
        case 2: return compare(variable, \Gadget.name, names.randomElement(using: &random)!, operation)
        case 3: return equality(variable, \Gadget.active, Bool.random(using: &random), operation % 2 == 0)
        default:
            let constant: String? = Bool.random(using: &random) ? nil : names.randomElement(using: &random)
            return equality(variable, \Gadget.nickname, constant, operation % 2 == 0)
        }
    }

    static func and<A: StandardPredicateExpression<Bool>, B: StandardPredicateExpression<Bool>>(
        _ a: A, _ b: B
    )
        -> Expression
    {
        PredicateExpressions.build_Conjunction(lhs: a, rhs: b)
    }

    static func or<A: StandardPredicateExpression<Bool>, B: StandardPredicateExpression<Bool>>(_ a: A, _ b: B)
        -> Expression
    {
        PredicateExpressions.build_Disjunction(lhs: a, rhs: b)
    }

    static func not<A: StandardPredicateExpression<Bool>>(_ a: A) -> Expression {
        PredicateExpressions.build_Negation(a)
    }

    static func conjunction(_ parts: [Expression]) -> Expression {
        var result = parts[0]
        for part in parts.dropFirst() { result = and(result, part) }
        return result
    }

    /// A random predicate; with `pushable` false, one part is something the analysis cannot capture.
    static func randomPredicate(_ random: inout Generator, pushable: Bool) -> Predicate<Gadget> {
        var copy = random
        let predicate = Predicate<Gadget> { variable in
            var parts = (0..<Int.random(in: 1...3, using: &copy)).map { _ in leaf(variable, &copy) }
            if !pushable {
                let a = leaf(variable, &copy)
                let b = leaf(variable, &copy)
                let opaque: Expression = Bool.random(using: &copy) ? or(a, b) : not(a)
                parts.insert(opaque, at: Int.random(in: 0...parts.count, using: &copy))
            }
            return conjunction(parts)
        }
        random = copy
        return predicate
    }

    @Test func exactPushdownEqualsEvaluationOverFiveHundredRandomPredicates() throws {
        var random = Generator(state: 2026)
        var exactCount = 0
        for round in 0..<500 {
            let gadgets = (0..<40).map { Self.randomGadget($0, &random) }
            let pushable = round % 4 != 3
            let predicate = Self.randomPredicate(&random, pushable: pushable)
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
