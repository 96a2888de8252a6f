public import DataStoreCore
public import Foundation
public import FuzzChecks

/// A model with every kind of attribute the pushdown compares: the property tests' random data.
public struct Gadget: PersistentModel, Hashable {
    /// The attributes.
    public static let schemaAttributes: [ModelAttribute<Gadget>] = [
        .attribute("count", \.count), .attribute("weight", \.weight), .attribute("name", \.name),
        .attribute("active", \.active), .attribute("nickname", \.nickname),
    ]
    /// The identifier.
    public var persistentModelID = PersistentIdentifier()
    /// An integer attribute.
    public var count = 0
    /// A double attribute (NaN, infinities and signed zeros among its random values).
    public var weight = 0.0
    /// A string attribute (canonically equivalent spellings among its random values).
    public var name = ""
    /// A bool attribute.
    public var active = false
    /// An optional string attribute.
    public var nickname: String?
    /// A computed property: no attribute, so only Swift can sort by it.
    public var nameLength: Int { name.count }
    /// An empty gadget.
    public init() {}
}

/// Random data and random predicates over ``Gadget``: the pushdown analysis's property test, and every store
/// that runs predicates natively checks its answers against Swift's with them.
public enum RandomPredicates {
    /// A Boolean predicate expression of any shape.
    public typealias Expression = PredicateBuilding<Gadget>.Expression
    typealias Build = PredicateBuilding<Gadget>

    /// A seeded generator, so that a failing round can be replayed.
    public typealias Generator = SplitMix64

    /// The strings random gadgets hold.
    public static let names = ["", "a", "b", "ab", "B", "é", "e\u{301}", "zz"]
    /// The doubles random gadgets hold.
    public static let weights: [Double] = [-1, 0, -0.0, 0.5, 2, .nan, .infinity]

    /// A random gadget with primary key `g<index>` in store `store`.
    public static func randomGadget(_ index: Int, _ random: inout Generator, store: String = "s") -> Gadget {
        var gadget = Gadget()
        gadget.persistentModelID = PersistentIdentifier(
            storeIdentifier: store, entityName: "Gadget", primaryKey: "g\(index)")
        gadget.count = Int.random(in: -3...3, using: &random)
        gadget.weight = weights.randomElement(using: &random)!
        gadget.name = names.randomElement(using: &random)!
        gadget.active = Bool.random(using: &random)
        gadget.nickname = Bool.random(using: &random) ? nil : names.randomElement(using: &random)
        return gadget
    }

    /// One pushable comparison on a random attribute.
    static func leaf(_ variable: PredicateExpressions.Variable<Gadget>, _ random: inout Generator)
        -> Expression
    {
        let operation = Int.random(in: 0..<6, using: &random)
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            return Build.compare(variable, \Gadget.count, Int.random(in: -3...3, using: &random), operation)
        case 1:
            return Build.compare(variable, \Gadget.weight, weights.randomElement(using: &random)!, operation)
        case 2: return Build.compare(variable, \Gadget.name, names.randomElement(using: &random)!, operation)
        case 3:
            return Build.equality(variable, \Gadget.active, Bool.random(using: &random), operation % 2 == 0)
        default:
            let constant: String? = Bool.random(using: &random) ? nil : names.randomElement(using: &random)
            return Build.equality(variable, \Gadget.nickname, constant, operation % 2 == 0)
        }
    }

    static func conjunction(_ parts: [Expression]) -> Expression {
        var result = parts[0]
        for part in parts.dropFirst() { result = Build.and(result, part) }
        return result
    }

    /// A random predicate; with `pushable` false, one part is something the analysis cannot capture.
    /// A random conjunction of one to three comparisons; with `pushable` false, one more part is an `||` or a
    /// `!` that the analysis cannot capture.
    public static func randomPredicate(_ random: inout Generator, pushable: Bool) -> Predicate<Gadget> {
        var copy = random
        let predicate = Predicate<Gadget> { variable in
            var parts = (0..<Int.random(in: 1...3, using: &copy)).map { _ in leaf(variable, &copy) }
            if !pushable {
                let a = leaf(variable, &copy)
                let b = leaf(variable, &copy)
                let opaque: Expression = Bool.random(using: &copy) ? Build.or(a, b) : Build.not(a)
                parts.insert(opaque, at: Int.random(in: 0...parts.count, using: &copy))
            }
            return conjunction(parts)
        }
        random = copy
        return predicate
    }
}
