public import DataStoreCore
import DataStoreKit

/// The kind of a ``JSONFileDataStore``'s history: tokens read `"v2:jsonfile:…"`.
///
/// The token's epoch is recorded in the store's journal header when the store is created or erased, so it is
/// the same in every process that opens the store, and different after `erase()`.
public enum JSONFileHistory: HistoryTokenKind {
    /// `jsonfile`.
    public static let name = "jsonfile"
}

/// A position in a ``JSONFileDataStore``'s history.
public typealias JSONFileHistoryToken = GenericHistoryToken<JSONFileHistory>
/// One `save` of a ``JSONFileDataStore``, committed as one journal record.
public typealias JSONFileHistoryTransaction = GenericHistoryTransaction<JSONFileHistory>
/// One change in a ``JSONFileDataStore`` transaction, with its attribute-level diff and values.
public typealias JSONFileHistoryChange = GenericHistoryChange<JSONFileHistory>
