public import DataStoreCore
import DataStoreKit

/// The kind of a ``TimeSeriesDataStore``'s history: tokens read `"v2:timeseries:…"`.
public enum TimeSeriesHistory: HistoryTokenKind {
    /// `timeseries`.
    public static let name = "timeseries"
}

/// A position in a ``TimeSeriesDataStore``'s history.
public typealias TimeSeriesHistoryToken = GenericHistoryToken<TimeSeriesHistory>
/// One commit of a ``TimeSeriesDataStore``: one save, or every save of a commit window.
public typealias TimeSeriesHistoryTransaction = GenericHistoryTransaction<TimeSeriesHistory>
/// One sample in a ``TimeSeriesDataStore`` transaction: always an insert, with the sample's values.
public typealias TimeSeriesHistoryChange = GenericHistoryChange<TimeSeriesHistory>
