import Foundation

/// The paths of a store's files inside its directory.
struct StoreDirectory: Sendable {
    static let journalName = "journal.jsonl"
    /// History segments are named `history-FIRST-LAST-RANDOM.jsonl`: the random part keeps a rewritten
    /// segment from ever taking the name of the one it replaces, which a reader may still have listed.
    static let segmentPrefix = "history-"

    let path: String
    /// The append-only journal of committed transactions.
    let journal: String
    /// The compacted state, replaced atomically by compaction.
    let snapshot: String
    /// The lock file writers `flock`. Its first 8 bytes hold the change count (mapped shared): releasing the
    /// exclusive lock after a write adds one (`ChangeCounter`); nothing else is written to it.
    let lock: String

    init(_ url: URL) {
        path = url.standardizedFileURL.path
        journal = path + "/" + Self.journalName
        snapshot = path + "/snapshot.json"
        lock = path + "/lock"
    }

    /// The path of a file in the directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// A new, unused name for a segment holding `first` through `last`.
    func newSegmentName(first: Int64, last: Int64) -> String {
        let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return "\(Self.segmentPrefix)\(first)-\(last)-\(random).jsonl"
    }

    /// The names of the history segments in the directory, listed or not.
    func segmentNames() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasPrefix(Self.segmentPrefix) && $0.hasSuffix(".jsonl") }
    }
}
