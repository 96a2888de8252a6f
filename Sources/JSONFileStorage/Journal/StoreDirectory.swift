import Foundation

/// The paths of a store's files inside its directory.
struct StoreDirectory: Sendable {
    let path: String

    init(_ url: URL) {
        path = url.standardizedFileURL.path
    }

    /// The append-only journal of committed transactions.
    var journal: String { path + "/journal.jsonl" }
    /// The compacted state, replaced atomically by compaction.
    var snapshot: String { path + "/snapshot.json" }
    /// The lock file writers `flock`; its contents are never written.
    var lock: String { path + "/lock" }
}
