import DataStoreConformance
import InMemoryStorage
import Testing

/// The whole conformance suite, in one line, against the in-memory store.
@Test(arguments: ConformanceCase.allCases)
func inMemoryStoreConforms(_ check: ConformanceCase) async throws {
    try await DataStoreConformance.run(
        check, capabilities: [.historyUpdates, .batchDeletes, .previousValues]
    ) {
        try InMemoryDataStore(.init(name: $0.storeName, schema: $0.schema))
    }
}
