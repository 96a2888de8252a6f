public import DataStoreCore
public import Foundation

/// Describes a ``TimeSeriesDataStore``: where it lives, how it partitions samples, how long it keeps them,
/// and how it groups saves into transactions.
public struct TimeSeriesStoreConfiguration: DataStoreConfiguration {
    /// The store opened from this configuration.
    public typealias Store = TimeSeriesDataStore

    /// How much history and data to keep. Retention removes whole segments, oldest first.
    public struct RetentionPolicy: Hashable, Sendable {
        /// Segments whose newest sample is older than this are removed. `nil` keeps samples of any age.
        public var maximumAge: TimeInterval?
        /// Oldest segments are removed while the segments' total size exceeds this many bytes (the segment
        /// being written is always kept). `nil` sets no size limit.
        public var maximumSize: Int64?

        /// Creates a policy; both limits must be positive.
        public init(maximumAge: TimeInterval? = nil, maximumSize: Int64? = nil) {
            self.maximumAge = maximumAge
            self.maximumSize = maximumSize
        }

        /// Keep everything.
        public static let keepEverything = RetentionPolicy()
    }

    /// The store's name and identifier; it must match the name recorded in the files.
    public var name: String
    /// The schema; a model container fills it in.
    public var schema: Schema?
    /// The directory that holds the store's files; created if missing (unless read-only).
    public var directory: URL
    /// The attribute holding each sample's time; every sample must have a date there.
    public var timestampAttribute: String
    /// The length of time one segment covers. A range query opens only the segments it overlaps.
    public var segmentSpan: TimeInterval
    /// How late a sample may arrive: one older than the newest sample by more than this is rejected.
    public var acceptedLateness: TimeInterval
    /// How far in the future (of the clock) a sample may lie.
    public var acceptedFutureSkew: TimeInterval
    /// When set, every save inside this window is folded into one transaction, committed when the window
    /// ends (at the first save after it, or on `flush()`). `nil`: one save is one transaction.
    public var commitWindow: TimeInterval?
    /// What to keep; applied after each commit and by `applyRetention()`.
    public var retention: RetentionPolicy
    /// Whether a save returns only after fsync (default) or after the write.
    public var isDurable: Bool
    /// Open without ever writing.
    public var isReadOnly: Bool
    /// How long a call waits for another process's lock on the store before it throws
    /// ``DataStoreError/storeLocked(path:)``. Ten seconds by default; zero fails at once.
    public var busyTimeout: Duration = .seconds(10)

    /// Creates a configuration.
    public init(
        name: String, schema: Schema? = nil, directory: URL, timestampAttribute: String = "timestamp",
        segmentSpan: TimeInterval = 3_600, acceptedLateness: TimeInterval = 3_600,
        acceptedFutureSkew: TimeInterval = 3_600, commitWindow: TimeInterval? = nil,
        retention: RetentionPolicy = .keepEverything, isDurable: Bool = true, isReadOnly: Bool = false
    ) {
        self.name = name
        self.schema = schema
        self.directory = directory
        self.timestampAttribute = timestampAttribute
        self.segmentSpan = segmentSpan
        self.acceptedLateness = acceptedLateness
        self.acceptedFutureSkew = acceptedFutureSkew
        self.commitWindow = commitWindow
        self.retention = retention
        self.isDurable = isDurable
        self.isReadOnly = isReadOnly
    }

    /// Throws ``DataStoreError/invalidConfiguration(reason:)`` for zero, negative or non-finite limits.
    func validate() throws(DataStoreError) {
        func positive(_ value: Double?, _ name: String) throws(DataStoreError) {
            if let value, !(value > 0 && value.isFinite) {
                throw .invalidConfiguration(
                    reason: "\(name) must be a positive number of seconds, not \(value)")
            }
        }
        guard !name.isEmpty else { throw .invalidConfiguration(reason: "a store needs a non-empty name") }
        try positive(segmentSpan, "segmentSpan")
        try positive(acceptedLateness, "acceptedLateness")
        try positive(acceptedFutureSkew, "acceptedFutureSkew")
        try positive(commitWindow, "commitWindow")
        try positive(retention.maximumAge, "retention.maximumAge")
        if let size = retention.maximumSize, size <= 0 {
            throw .invalidConfiguration(
                reason: "retention.maximumSize must be a positive number of bytes, not \(size)")
        }
    }
}
