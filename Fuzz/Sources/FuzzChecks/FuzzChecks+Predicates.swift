import DataStoreCore
import DataStoreKit
import Foundation
import InMemoryStorage

/// A model with an attribute of each kind the predicate analysis compares.
struct FuzzGadget: PersistentModel {
    static let schemaAttributes: [ModelAttribute<FuzzGadget>] = [
        .attribute("count", \.count), .attribute("weight", \.weight), .attribute("name", \.name),
        .attribute("active", \.active), .attribute("nickname", \.nickname),
    ]
    static let entityName = "Gadget"
    var persistentModelID = PersistentIdentifier()
    var count = 0
    var weight = 0.0
    var name = ""
    var active = false
    var nickname: String?
    init() {}
}

/// The input's bytes, read one at a time as the fuzzer's choices; zeros once they run out. A class, so that a
/// predicate's builder closure reads it without capturing an `inout` parameter.
final class FuzzChoices {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func next() -> Int {
        defer { position += 1 }
        return position < bytes.count ? Int(bytes[position]) : 0
    }

    func pick<Element>(_ options: [Element]) -> Element { options[next() % options.count] }
}

/// Predicates over `FuzzGadget` built from the fuzzer's choices: any nesting of `&&`, `||` and `!` over
/// comparisons of each attribute with constants (either side), or a membership test (`[…].contains($0.x)`).
enum FuzzPredicates {
    typealias Expression = PredicateBuilding<FuzzGadget>.Expression
    typealias Build = PredicateBuilding<FuzzGadget>

    static let names = ["", "a", "b", "ab", "B", "é", "e\u{301}", "zz"]
    static let weights: [Double] = [-1, 0, -0.0, 0.5, 2, .nan, .infinity, -.infinity]
    static let counts = Array(-3...3) + [Int.min, Int.max]

    static func gadget(_ index: Int, _ choices: FuzzChoices) -> FuzzGadget {
        var gadget = FuzzGadget()
        gadget.persistentModelID = PersistentIdentifier(
            storeIdentifier: "fuzz", entityName: "Gadget", primaryKey: "g\(index)")
        gadget.count = choices.pick(counts)
        gadget.weight = choices.pick(weights)
        gadget.name = choices.pick(names)
        gadget.active = choices.next() % 2 == 0
        gadget.nickname = choices.next() % 3 == 0 ? nil : choices.pick(names)
        return gadget
    }

    static func predicate(_ choices: FuzzChoices) -> Predicate<FuzzGadget> {
        if choices.next() % 8 == 0 {
            let useNames = choices.next() % 2 == 0
            let count = choices.next() % 4
            if useNames {
                let values = (0..<count).map { _ in choices.pick(names) }
                return Predicate<FuzzGadget> { variable in
                    PredicateExpressions.build_contains(
                        PredicateExpressions.build_Arg(values),
                        PredicateExpressions.build_KeyPath(root: variable, keyPath: \FuzzGadget.name))
                }
            }
            let values = (0..<count).map { _ in choices.pick(counts) }
            return Predicate<FuzzGadget> { variable in
                PredicateExpressions.build_contains(
                    PredicateExpressions.build_Arg(values),
                    PredicateExpressions.build_KeyPath(root: variable, keyPath: \FuzzGadget.count))
            }
        }
        return Predicate<FuzzGadget> { variable in node(variable, choices, depth: 0) }
    }

    static func node(
        _ variable: PredicateExpressions.Variable<FuzzGadget>, _ choices: FuzzChoices, depth: Int
    )
        -> Expression
    {
        switch depth < 4 ? choices.next() % 6 : 0 {
        case 3:
            return Build.and(
                node(variable, choices, depth: depth + 1), node(variable, choices, depth: depth + 1))
        case 4:
            return Build.or(
                node(variable, choices, depth: depth + 1), node(variable, choices, depth: depth + 1))
        case 5: return Build.not(node(variable, choices, depth: depth + 1))
        default: return leaf(variable, choices)
        }
    }

    static func leaf(_ variable: PredicateExpressions.Variable<FuzzGadget>, _ choices: FuzzChoices)
        -> Expression
    {
        let operation = choices.next() % 7
        switch choices.next() % 5 {
        case 0: return Build.compare(variable, \FuzzGadget.count, choices.pick(counts), operation)
        case 1: return Build.compare(variable, \FuzzGadget.weight, choices.pick(weights), operation)
        case 2: return Build.compare(variable, \FuzzGadget.name, choices.pick(names), operation)
        case 3:
            return Build.equality(variable, \FuzzGadget.active, choices.next() % 2 == 0, operation % 2 == 0)
        default:
            let constant: String? = choices.next() % 3 == 0 ? nil : choices.pick(names)
            return Build.equality(variable, \FuzzGadget.nickname, constant, operation % 2 == 0)
        }
    }
}

extension FuzzChecks {
    /// A predicate built from the input (`FuzzPredicates`) over rows built from the rest of it: the analysis's
    /// bounds, applied as a database would (`SnapshotValue.satisfies`), select exactly what `evaluate` selects
    /// when they claim to be exact, and never leave out a match otherwise; the in-memory store's fetch (its
    /// planner) agrees with `evaluate`.
    static func predicates(_ bytes: [UInt8]) -> String? {
        let choices = FuzzChoices(bytes)
        let predicate = FuzzPredicates.predicate(choices)
        let gadgets = (0..<(1 + choices.next() % 24)).map { FuzzPredicates.gadget($0, choices) }
        let evaluated: Set<PersistentIdentifier>
        do {
            evaluated = Set(try gadgets.filter { try predicate.evaluate($0) }.map(\.persistentModelID))
        } catch {
            return "evaluate threw \(error)"
        }
        let bounds = ModelPredicateBounds<FuzzGadget>(predicate)
        let native = Set(
            gadgets.filter { gadget in
                let values = gadget.snapshotValues
                if let membership = bounds.attributeMembership {
                    let value = values[membership.name] ?? .null
                    return membership.values.contains { value.satisfies(.equal, $0) }
                }
                return bounds.attributeConstraints.allSatisfy {
                    (values[$0.name] ?? .null).satisfies($0.relation, $0.value)
                }
            }
            .map(\.persistentModelID))
        if bounds.isExact ? native != evaluated : !evaluated.isSubset(of: native) {
            return
                "the bounds (exact: \(bounds.isExact)) select \(native.count) rows, evaluate \(evaluated.count)"
        }
        do {
            let store = try InMemoryDataStore(
                InMemoryStoreConfiguration(name: "fuzz", schema: Schema([FuzzGadget.self])))
            _ = try store.save(DataStoreSaveChangesRequest(inserted: gadgets.map(\.snapshot)))
            let descriptor = FetchDescriptor<FuzzGadget>(predicate: predicate)
            let fetched = Set(
                try store.fetch(DataStoreFetchRequest(descriptor: descriptor)).snapshots.map(
                    \.persistentIdentifier))
            guard fetched == evaluated else {
                return
                    "the in-memory store fetched \(fetched.count) rows, evaluate selects \(evaluated.count)"
            }
        } catch {
            return "the in-memory store threw \(error)"
        }
        return nil
    }
}
