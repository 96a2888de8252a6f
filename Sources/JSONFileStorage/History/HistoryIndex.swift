import DataStoreCore
import DataStoreKit
import Foundation

/// Where a JSON file store's retained history is, without holding it: the history files in commit order
/// with a sparse sequence → offset index into each, and which sequences are forgotten.
///
/// History lives in files: `history-*.jsonl` segments that checkpoints wrote (immutable, listed in the
/// snapshot), then the journal since the last checkpoint. Memory holds one ``Mark`` per block of
/// transactions (at most ``Mark/spacing`` transactions or ``Mark/spacingBytes`` bytes), so a read starts at
/// the mark before the first sequence it wants and reads about one block more than its result.
///
/// A sequence is retained when it is past ``forgottenThrough``, not in ``forgotten`` and at most the latest:
/// sequences are contiguous from 1, so the count needs no file. Forgotten transactions may still be in a file
/// until the next checkpoint rewrites it; readers skip them.
struct HistoryIndex: Sendable {
    /// The start of a block of transaction records in a history file.
    struct Mark: Codable, Sendable, Hashable {
        /// A new block starts after this many transactions…
        static let spacing = 32
        /// …or this many bytes, whichever comes first.
        static let spacingBytes: Int64 = 64 * 1_024

        /// The block's first transaction.
        var sequence: Int64
        /// The byte offset of its record's line.
        var offset: Int64
        /// Its timestamp: timestamps never decrease along history, so marks also bound time.
        var timestamp: Date
    }

    /// One file of history records, in commit order.
    struct File: Codable, Sendable {
        /// The file name inside the store directory.
        var name: String
        /// The first and last transactions the file holds.
        var first: Int64
        var last: Int64
        /// The file offset just past its last record.
        var end: Int64
        var marks: [Mark]
        /// Transactions since the last mark (not stored: a segment is complete when it is written).
        var sinceMark = 0

        enum CodingKeys: String, CodingKey {
            case name, first, last, end, marks
        }

        init(name: String) {
            self.name = name
            first = 0
            last = 0
            end = 0
            marks = []
        }

        var isEmpty: Bool { marks.isEmpty }

        /// Records a transaction written at `offset`.
        mutating func append(sequence: Int64, timestamp: Date, offset: Int64) {
            if marks.isEmpty { first = sequence }
            if marks.isEmpty || sinceMark >= Mark.spacing
                || offset - (marks.last?.offset ?? 0) >= Mark.spacingBytes
            {
                marks.append(Mark(sequence: sequence, offset: offset, timestamp: timestamp))
                sinceMark = 0
            }
            sinceMark += 1
            last = sequence
        }

        /// Where to start reading for transactions after `after` and not before `notBefore`: the last mark at
        /// or before the first wanted one (`nil` when the whole file is before them).
        func start(after: Int64, notBefore: Date?) -> Int64? {
            guard !isEmpty, last > after else { return nil }
            var index = marks.partitioningIndex { $0.sequence > after + 1 } - 1
            if let notBefore {
                // Every transaction before a mark older than `notBefore` is older still.
                index = max(index, marks.partitioningIndex { $0.timestamp >= notBefore } - 1)
            }
            return marks[max(index, 0)].offset
        }
    }

    /// Segments that checkpoints wrote, oldest first.
    var segments: [File] = []
    /// Transactions of a snapshot written before history moved to segments (format 1): held in memory
    /// until the next checkpoint writes them to a segment.
    var inline: [JournalRecord.TransactionRecord] = []
    /// The journal's transactions since the last checkpoint.
    var journal = File(name: StoreDirectory.journalName)
    /// Every sequence up to this one is forgotten.
    var forgottenThrough: Int64 = 0
    /// Forgotten sequences after ``forgottenThrough``.
    var forgotten: Set<Int64> = []
    /// The newest sequence in history.
    var latest: Int64 = 0
    /// The oldest retained transaction's sequence and timestamp, once read: an age limit needs no file while
    /// that transaction is still the oldest and is not old enough.
    var oldestTimestamp: (sequence: Int64, timestamp: Date)?

    /// An empty index whose cache keeps about `recentChangeLimit` changes.
    init(recentChangeLimit: Int = 2_048) {
        recent = RecentHistory(changeLimit: recentChangeLimit)
    }

    /// The newest transactions, decoded, contiguous up to ``latest``: reads of the tail (a change feed, a sync
    /// after its token) are answered from here without reading a file. At most about
    /// ``recentChangeLimit`` changes; older ones are read from the files.
    private(set) var recent: RecentHistory<JSONFileHistoryTransaction>
    /// The bounded cache's size, in changes (see `JSONFileStoreConfiguration.recentHistoryChanges`); setting
    /// it empties the cache.
    var recentChangeLimit: Int {
        get { recent.changeLimit }
        set { recent = RecentHistory(changeLimit: newValue) }
    }

    /// Keeps a transaction just committed or replayed in the cache, dropping the oldest beyond its bound.
    mutating func remember(_ transaction: JSONFileHistoryTransaction) {
        recent.remember(CollectionOfOne(transaction), after: transaction.token.sequence - 1)
    }

    /// Whether the cache would keep a transaction of `changeCount` changes (see `RecentHistory`).
    func caches(changeCount: Int) -> Bool {
        recent.caches(changeCount: changeCount)
    }

    /// Notes a transaction the cache does not keep: it starts again after it, as it keeps no gap.
    mutating func skipRecent() {
        recent.removeAll()
    }

    /// The files to read, in commit order, the journal's valid data ending at `journalEnd`.
    func files(journalEnd: Int64) -> [File] {
        var journal = journal
        journal.end = journalEnd
        return segments + [journal]
    }

    /// The number of retained transactions.
    var count: Int { Int(latest - forgottenThrough) - forgotten.count }

    /// Whether `sequence` is retained.
    func isRetained(_ sequence: Int64) -> Bool {
        sequence > forgottenThrough && sequence <= latest && !forgotten.contains(sequence)
    }

    /// The oldest retained sequences, up to `count` of them.
    func oldest(_ count: Int) -> [Int64] {
        var result: [Int64] = []
        var sequence = forgottenThrough
        while result.count < count && sequence < latest {
            sequence += 1
            if !forgotten.contains(sequence) { result.append(sequence) }
        }
        return result
    }

    /// The retained sequences up to `sequence`, oldest first.
    func retained(through sequence: Int64) -> [Int64] {
        guard sequence > forgottenThrough else { return [] }
        return (forgottenThrough + 1...min(sequence, latest)).filter { !forgotten.contains($0) }
    }

    /// Forgets the retained sequences among `sequences`; the others (already forgotten) are ignored, so
    /// replaying a `forget` record twice changes nothing.
    mutating func forget(_ sequences: some Sequence<Int64>) {
        for sequence in sequences where isRetained(sequence) {
            forgotten.insert(sequence)
        }
        while forgotten.remove(forgottenThrough + 1) != nil {
            forgottenThrough += 1
        }
    }

    /// The sequence of the newest mark older than `cutoff`, with every retained sequence up to it older too:
    /// a lower bound of what an age limit removes, found without reading a file.
    func newestMarkedSequence(before cutoff: Date) -> Int64? {
        var newest: Int64?
        for record in inline where record.timestamp < cutoff { newest = record.sequence }
        for file in segments + [journal] {
            if let mark = file.marks.last(where: { $0.timestamp < cutoff }) { newest = mark.sequence }
        }
        return newest
    }

    /// The bytes the retained history occupies in its files, about: from the oldest mark at or before the
    /// first retained sequence to each file's end.
    func fileBytes(journalEnd: Int64) -> Int64 {
        files(journalEnd: journalEnd).reduce(0) { total, file in
            guard let start = file.start(after: forgottenThrough, notBefore: nil) else { return total }
            return total + file.end - start
        }
    }
}
