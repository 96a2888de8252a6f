/// A store that records its saves as history whose tokens are the store's own ``DataStore/Token``: every store
/// a model container opens and the conformance suite checks. It says once what would otherwise be spelled at
/// every use: `Store: DataStore & HistoryProviding, Store.HistoryType.Token == Store.Token`.
///
/// # Implementation requirements
///
/// - Those of ``DataStore`` and ``HistoryProviding``.
/// - Declare the conformance (`extension MyStore: HistoryProvidingStore {}`); the compiler checks that the
///   history transactions' token type is the store's token type, so a save's token and a fetched
///   transaction's token compare and resume alike.
public protocol HistoryProvidingStore: DataStore, HistoryProviding where HistoryType.Token == Token {}
