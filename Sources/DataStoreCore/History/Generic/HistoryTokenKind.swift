/// Names a backend's history: the `kind` its tokens write into their JSON (`"v2:kind:…"`), and the prefix of their
/// descriptions. A backend declares one caseless enum and uses the generic history types with it:
///
/// ```swift
/// public enum MyStoreHistory: HistoryTokenKind { public static let name = "mystore" }
/// public typealias MyStoreHistoryToken = GenericHistoryToken<MyStoreHistory>
/// public typealias MyStoreHistoryTransaction = GenericHistoryTransaction<MyStoreHistory>
/// ```
///
/// # Implementation requirements
///
/// - ``name`` is short, lowercase, and different from every other backend's (`memory`, `jsonfile`,
///   `timeseries` are taken): decoding a token of another kind throws `malformedHistoryToken`, which is what
///   keeps one backend's saved token from being read as another's.
/// - It never changes once tokens have been saved: apps keep tokens in files across releases.
public protocol HistoryTokenKind: Sendable {
    /// The kind written into tokens' JSON, such as `jsonfile`.
    static var name: String { get }
}
