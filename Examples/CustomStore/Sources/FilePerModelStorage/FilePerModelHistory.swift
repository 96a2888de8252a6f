public import DataStoreCore
import DataStoreKit

// A backend names its history with one kind and uses the package's generic history types: the token, the
// transaction (with its seekable key paths) and the change are shared, Codable, and read alike everywhere.

/// The kind of a ``FilePerModelDataStore``'s history: tokens read `"v2:filepermodel:…"`.
public enum FilePerModelHistory: HistoryTokenKind {
    /// `filepermodel`.
    public static let name = "filepermodel"
}

/// A position in a ``FilePerModelDataStore``'s history.
public typealias FilePerModelHistoryToken = GenericHistoryToken<FilePerModelHistory>
/// One save. Codable, because history is kept as JSON lines.
public typealias FilePerModelHistoryTransaction = GenericHistoryTransaction<FilePerModelHistory>
/// One change: the insert, update or delete of one model, with the values it wrote.
public typealias FilePerModelHistoryChange = GenericHistoryChange<FilePerModelHistory>
