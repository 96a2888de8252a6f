public import DataStoreCore
import DataStoreKit

/// The kind of an ``InMemoryDataStore``'s history: tokens read `"v2:memory:…"`.
public enum InMemoryHistory: HistoryTokenKind {
    /// `memory`.
    public static let name = "memory"
}

/// A position in an ``InMemoryDataStore``'s history.
public typealias InMemoryHistoryToken = GenericHistoryToken<InMemoryHistory>
/// One `save` of an ``InMemoryDataStore``.
public typealias InMemoryHistoryTransaction = GenericHistoryTransaction<InMemoryHistory>
/// One change in an ``InMemoryDataStore`` transaction.
public typealias InMemoryHistoryChange = GenericHistoryChange<InMemoryHistory>
