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
    /// A value holding `relatedModel`, or nothing: what ``init(relatedModels:)`` makes of a list of at most one,
    /// without making the list.
    init(relatedModel: Destination?)
}

extension RelationshipValue {
    /// A value holding `relatedModel`, through ``init(relatedModels:)``.
    public init(relatedModel: Destination?) {
        self.init(relatedModels: relatedModel.map { [$0] } ?? [])
    }
}

extension Optional: RelationshipValue
where Wrapped: OptionalRelationshipContent, Wrapped._RelationshipDestination: PersistentModel & AnyObject {
    /// The model type the relationship points to.
    public typealias Destination = Wrapped._RelationshipDestination
    /// To-one for an optional model (`LivingAccommodation?`), to-many for an optional list (`[Item]?`).
    public static var isToMany: Bool { Wrapped._isToMany }
    /// The model or the list's models; none for `nil`.
    public var relatedModels: [Destination] { self.map { $0._relatedModels } ?? [] }
    /// The first model for a to-one relationship (`nil` when there is none); the list for a to-many one
    /// (empty, never `nil`: a fetched optional list reads as `[]` when it holds nothing).
    public init(relatedModels: [Destination]) { self = Wrapped._content(of: relatedModels) }
    /// The model for a to-one relationship (`nil` when there is none); a list of it for a to-many one.
    public init(relatedModel: Destination?) { self = Wrapped._content(ofOne: relatedModel) }
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
    /// The models that differ between this value and `other`, which replaces it: each side's models between
    /// the longest runs of the same instances both start and end with. `nil` when both hold the same instances
    /// in the same order.
    ///
    /// An append is then the appended models alone, and a removal the removed one, found by comparing
    /// references rather than by hashing both lists: building a list one append at a time hashed the whole
    /// list at each append.
    func differingParts(to other: Self) -> (removed: [Destination], added: [Destination])? {
        let old = relatedModels
        let new = other.relatedModels
        let (prefix, suffix) = ModelReferences.commonEnds(old, new)
        if prefix == old.count, prefix == new.count { return nil }
        return (Array(old[prefix..<(old.count - suffix)]), Array(new[prefix..<(new.count - suffix)]))
    }
}

/// What an optional relationship can wrap: a class model (`var stay: LivingAccommodation?`, to-one) or a list
/// of them (`var bucketList: [BucketListItem]? = []`, to-many, as six of SwiftData's sample snippets declare
/// it). Every ``PersistentModel`` conforms (only class models can be destinations) and so do arrays of class
/// models; nothing else needs to.
public protocol OptionalRelationshipContent {
    /// The model type a relationship holding this value points to.
    associatedtype _RelationshipDestination
    /// Whether the value is a list.
    static var _isToMany: Bool { get }
    /// The models the value holds.
    var _relatedModels: [_RelationshipDestination] { get }
    /// The value holding `models` (a model: the first, if any).
    static func _content(of models: [_RelationshipDestination]) -> Self?
    /// The value holding `model`, if any: what ``_content(of:)`` makes of a list of at most one.
    static func _content(ofOne model: _RelationshipDestination?) -> Self?
}

extension OptionalRelationshipContent {
    /// The value holding `model`, through ``_content(of:)``.
    public static func _content(ofOne model: _RelationshipDestination?) -> Self? {
        _content(of: model.map { [$0] } ?? [])
    }
}

extension PersistentModel {
    /// A model is a to-one relationship's content.
    public static var _isToMany: Bool { false }
    /// The model itself.
    public var _relatedModels: [Self] { [self] }
    /// The first model, if any.
    public static func _content(of models: [Self]) -> Self? { models.first }
    /// The model itself.
    public static func _content(ofOne model: Self?) -> Self? { model }
}

extension Array: OptionalRelationshipContent where Element: PersistentModel & AnyObject {
    /// The models a list holds.
    public typealias _RelationshipDestination = Element
    /// A list is a to-many relationship's content.
    public static var _isToMany: Bool { true }
    /// The list.
    public var _relatedModels: [Element] { self }
    /// The list of `models`.
    public static func _content(of models: [Element]) -> [Element]? { models }
}
