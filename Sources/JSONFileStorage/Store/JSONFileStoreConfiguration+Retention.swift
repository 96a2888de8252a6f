public import Foundation

extension JSONFileStoreConfiguration {
    /// How much history a JSON file store keeps. Models are never removed; only history transactions are, oldest
    /// first, and tokens older than the newest removed transaction then throw `historyTokenExpired`, as after
    /// `deleteHistory`.
    ///
    /// The store trims before and after each save (on a copy of its state, so that readers go on) once history exceeds a
    /// limit by a margin (an eighth of the count limit, so that trimming costs one `forget` record per many
    /// saves, not one per save), and trims it back to exactly the limit: the newest `maximumTransactionCount`
    /// transactions, and none older than `maximumAge`. It compacts (reclaiming the space) once the trimmed
    /// transactions outnumber the kept ones. With `maximumBytes`, a journal past the bound is trimmed to the
    /// newest transactions that fit in half of it and compacted at once.
    public struct HistoryRetention: Hashable, Sendable {
        /// Keep at most this many transactions (at least 1). `nil` sets no count limit.
        public var maximumTransactionCount: Int?
        /// Remove transactions committed longer ago than this many seconds (positive). `nil` sets no age limit.
        public var maximumAge: TimeInterval?
        /// Keep the journal, and the history it retains, under this many bytes (positive). When a save leaves the
        /// journal past it, the oldest transactions are forgotten until the newest fit in half of it (counted as
        /// the journal spells them) and the store compacts, so the journal starts again nearly empty. The
        /// snapshot still holds every model: this bounds history, not data. The free space a durable save
        /// leaves after the journal's records counts towards the bound. `nil` sets no size limit.
        public var maximumBytes: Int64?

        /// Creates a policy.
        public init(
            maximumTransactionCount: Int? = nil, maximumAge: TimeInterval? = nil, maximumBytes: Int64? = nil
        ) {
            self.maximumTransactionCount = maximumTransactionCount
            self.maximumAge = maximumAge
            self.maximumBytes = maximumBytes
        }

        /// Keep all history (the default): it shrinks only through `deleteHistory` or `datastore compact
        /// --history-before`.
        public static let keepEverything = HistoryRetention()

        /// Whether no limit is set.
        var keepsEverything: Bool {
            maximumTransactionCount == nil && maximumAge == nil && maximumBytes == nil
        }

        /// How far past the count limit history may grow before a trim.
        var margin: Int { max(1, (maximumTransactionCount ?? 0) / 8) }
    }
}
