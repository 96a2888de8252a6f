import Synchronization

/// How a fetch sets the attributes of a model it creates, derived once per model type.
///
/// A fetch sets every attribute of every model it returns. Through ``ModelAttribute/setValue(_:on:)`` each
/// set copies the attribute's declaration and, for an `@Attribute` property, goes through the property's
/// setter (two key path projections and a change note). A new model is tracked by no context, so its values
/// can go straight into the wrappers' storage; this table holds, per attribute, the writer that does that.
final class ModelWriters<Model: PersistentModel>: @unchecked Sendable {
    // `@unchecked`: immutable after creation; closures capture only key paths.

    /// One attribute: its name in snapshots, its position in `schemaAttributes`, and its writer (`nil` for a
    /// relationship, which a resolver sets).
    struct Entry {
        let name: String
        let position: Int
        let write: ((inout Model, SnapshotValue) -> Bool)?
    }

    let entries: [Entry]

    private init() {
        let storages = ChangeReportingDiscovery.attributeStorages(Model.self)
        entries = Model.schemaAttributes.enumerated().map { position, attribute in
            Entry(
                name: attribute.name, position: position,
                write: attribute.freshWriter(storage: storages[position]))
        }
    }

    /// The table of `Model`, made on first use.
    static func of(_: Model.Type) -> ModelWriters {
        let key = ObjectIdentifier(Model.self)
        if let known = ModelWritersCache.tables.withLock({ $0[key] }) {
            return unsafeDowncast(known, to: ModelWriters.self)
        }
        let made = ModelWriters()
        ModelWritersCache.tables.withLock { $0[key] = made }
        return made
    }
}

/// The tables of ``ModelWriters``, by model type (a generic class has no static stored properties).
private enum ModelWritersCache {
    static let tables = Lock<[ObjectIdentifier: AnyObject]>([:])
}
