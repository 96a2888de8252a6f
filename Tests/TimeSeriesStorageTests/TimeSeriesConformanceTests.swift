import DataStoreConformance
import Foundation
import Testing
import TimeSeriesStorage

/// The whole conformance suite, in one line, against the time-series store.
@Test(arguments: ConformanceCase.allCases)
func timeSeriesStoreConforms(_ check: ConformanceCase) async throws {
    try await DataStoreConformance.run(
        check, capabilities: [.insertOnly, .durable, .multiProcess, .historyUpdates]
    ) {
        try TimeSeriesDataStore(.init(name: $0.storeName, schema: $0.schema, directory: $0.directory))
    }
}
