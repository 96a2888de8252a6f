/// Loads the models a relationship refers to when it is first read.
///
/// A model context resolves through its identity map (one instance per identifier) and batch-loads the
/// identifiers the same fetch brought in; a store evaluating a predicate resolves from its own rows.
@usableFromInline
package protocol RelatedModelResolving: AnyObject {
    /// The models with these identifiers, in the same order, leaving out the ones that do not exist; `nil`
    /// when they could not be loaded (the store failed), so that the relationship stays a fault.
    func resolve<Model: PersistentModel & AnyObject>(
        _ identifiers: [PersistentIdentifier], as type: Model.Type
    )
        -> [Model]?

    /// The model with this identifier, for a to-one relationship: `.some(nil)` when it does not exist, `nil`
    /// when it could not be loaded. The default asks ``resolve(_:as:)`` for a list of one; a resolver answers
    /// it without making that list (reading one to-one relationship of each of thousands of fetched models is
    /// the common case).
    func resolveOne<Model: PersistentModel & AnyObject>(
        _ identifier: PersistentIdentifier, as type: Model.Type
    )
        -> Model??

    /// The ``ModelChangeLog/trackingNumber`` of the change log of the context the resolver loads into, `0` for
    /// a resolver outside any context: the relationships it loads report there the new models they let go of.
    var changeLogNumber: Int { get }
}

extension RelatedModelResolving {
    /// The model with this identifier, through ``resolve(_:as:)``.
    package func resolveOne<Model: PersistentModel & AnyObject>(
        _ identifier: PersistentIdentifier, as type: Model.Type
    ) -> Model?? {
        resolve([identifier], as: type).map { $0.first }
    }

    /// No context's log: a store's own resolver.
    package var changeLogNumber: Int { 0 }
}

/// A relationship that has not been read yet: the persisted value it holds and who can load it.
@usableFromInline
struct RelationshipFault {
    /// The persisted value: `null`, an identifier, or an array of identifiers. Kept as it came from the store,
    /// so making a fault costs no parsing, and saving an unread relationship writes the same value back.
    @usableFromInline var value: SnapshotValue
    /// The related identifiers, in order.
    @usableFromInline var identifiers: [PersistentIdentifier] { value.relatedIdentifiers ?? [] }
    /// Loads them; `nil` for a model made from a snapshot outside any context, whose relationships read
    /// as empty.
    @usableFromInline var resolver: (any RelatedModelResolving)?

    @usableFromInline
    init(value: SnapshotValue, resolver: (any RelatedModelResolving)?) {
        self.value = value
        self.resolver = resolver
    }
}
