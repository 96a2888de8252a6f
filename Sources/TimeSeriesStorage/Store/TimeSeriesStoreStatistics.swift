public import DataStoreCore

/// Counters of a ``TimeSeriesDataStore``'s work, for tests and benchmarks to check that it seeks.
public struct TimeSeriesStoreStatistics: Hashable, Sendable {
    /// What history queries examined and evaluated.
    public var history = HistoryQueryStatistics()
    /// Segments read by fetches and history fetches (the segment being written counts when used).
    public var segmentsOpened = 0
    /// Samples decoded and offered to a fetch's predicate.
    public var samplesExamined = 0
    /// Bytes appended to segments by this process.
    public var bytesWritten: Int64 = 0
    /// Transactions committed by this process.
    public var commits = 0
    /// Segments removed by retention or `deleteHistory`.
    public var segmentsRemoved = 0

    /// Zero counters.
    public init() {}
}
