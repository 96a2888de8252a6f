/// Describes a store to open: its name and the schema it holds, plus whatever the backend needs.
///
/// A `ModelContainer` fills in ``schema`` from the model types routed to the store, then opens the store
/// with `Store(configuration)`.
///
/// # Implementation requirements
///
/// - ``name`` becomes the store's identifier and must be stable across launches: tokens carry it.
/// - Opening a configuration with a `nil` schema accepts any entity, with no attribute options.
public protocol DataStoreConfiguration: Sendable {
    /// The store type this configuration opens.
    associatedtype Store: DataStore where Store.Configuration == Self

    /// The store's name, used as its identifier.
    var name: String { get }
    /// The entities the store holds, or `nil` to accept any entity without options.
    var schema: Schema? { get set }
}
