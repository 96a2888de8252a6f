import DataStoreConformance
import FilePerModelStorage
import Testing

/// The one line a backend author adds: every applicable check of the conformance suite.
@Test(arguments: ConformanceCase.allCases)
func filePerModelStoreConforms(_ check: ConformanceCase) async throws {
    try await DataStoreConformance.run(check, capabilities: [.durable]) {
        try FilePerModelDataStore(.init(name: $0.storeName, schema: $0.schema, directory: $0.directory))
    }
}
