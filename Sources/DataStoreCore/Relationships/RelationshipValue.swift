/// The type of a relationship property: `Model?` for a to-one relationship, `[Model]` for a to-many one,
/// where `Model` is a class model.
///
/// You do not conform types to it: `Optional` and `Array` of class models already do.
public protocol RelationshipValue {
    /// The model type the relationship points to.
    associatedtype Destination: PersistentModel & AnyObject
    /// Whether the relationship holds a list.
    static var isToMany: Bool { get }
    /// The related models, in order.
    var relatedModels: [Destination] { get }
    /// A value holding `relatedModels` (a to-one relationship holds the first, if any).
    init(relatedModels: [Destination])
}

extension Optional: RelationshipValue where Wrapped: PersistentModel & AnyObject {
    /// A to-one relationship.
    public static var isToMany: Bool { false }
    /// The model, if there is one.
    public var relatedModels: [Wrapped] { self.map { [$0] } ?? [] }
    /// The first model, or `nil`.
    public init(relatedModels: [Wrapped]) { self = relatedModels.first }
}

extension Array: RelationshipValue where Element: PersistentModel & AnyObject {
    /// A to-many relationship.
    public static var isToMany: Bool { true }
    /// The models.
    public var relatedModels: [Element] { self }
    /// The models.
    public init(relatedModels: [Element]) { self = relatedModels }
}

extension RelationshipValue {
    /// Whether both values hold the same instances in the same order.
    func holdsSameInstances(as other: Self) -> Bool {
        let lhs = relatedModels
        let rhs = other.relatedModels
        guard lhs.count == rhs.count else { return false }
        for index in lhs.indices where lhs[index] !== rhs[index] { return false }
        return true
    }
}
