/// Loads the models a relationship refers to when it is first read.
///
/// A model context resolves through its identity map (one instance per identifier) and batch-loads the
/// identifiers the same fetch brought in; a store evaluating a predicate resolves from its own rows.
protocol RelatedModelResolving: AnyObject {
    /// The models with these identifiers, in the same order, leaving out the ones that do not exist; `nil`
    /// when they could not be loaded (the store failed), so that the relationship stays a fault.
    func resolve<Model: PersistentModel & AnyObject>(
        _ identifiers: [PersistentIdentifier], as type: Model.Type
    )
        -> [Model]?
}

/// A relationship that has not been read yet: the identifiers it holds and who can load them.
struct RelationshipFault {
    /// The related identifiers, in order.
    var identifiers: [PersistentIdentifier]
    /// Loads them; `nil` for a model made from a snapshot outside any context, whose relationships read
    /// as empty.
    var resolver: (any RelatedModelResolving)?
}
