import DataStoreConformance
import Foundation
import Testing

@testable import JSONFileStorage

/// The whole conformance suite, in one line, against the JSON file store.
@Test(arguments: ConformanceCase.allCases)
func jsonFileStoreConforms(_ check: ConformanceCase) async throws {
    try await DataStoreConformance.run(
        check, capabilities: [.durable, .multiProcess, .historyUpdates, .batchDeletes, .previousValues]
    ) {
        try JSONFileDataStore(.init(name: $0.storeName, schema: $0.schema, directory: $0.directory))
    }
}

/// Again with a checkpoint after every save and no cache of recent transactions: all history is then read
/// from segment files through their sparse indexes, none from the journal or memory.
@Test(arguments: ConformanceCase.allCases)
func jsonFileStoreCheckpointingAfterEverySaveConforms(_ check: ConformanceCase) async throws {
    try await DataStoreConformance.run(
        check, capabilities: [.durable, .multiProcess, .historyUpdates, .batchDeletes, .previousValues]
    ) {
        var configuration = JSONFileStoreConfiguration(
            name: $0.storeName, schema: $0.schema, directory: $0.directory)
        // A checkpoint after every save, however large the snapshot.
        configuration.checkpointJournalBytes = 1
        configuration.checkpointJournalRatio = nil
        configuration.recentHistoryChanges = 0
        return try JSONFileDataStore(configuration)
    }
}
