import DataStoreCore
import Foundation
import JSONFileStorage
import Testing

/// Automatic checkpoints keep the journal near `checkpointJournalBytes` and lose nothing.
@Suite struct CheckpointTests {
    @Test func theJournalStaysNearTheThresholdAndEverythingSurvivesReopening() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = JSONFileStoreConfiguration(
            name: "memos", schema: Schema([Memo.self]), directory: directory.url, durability: .relaxed)
        configuration.checkpointJournalBytes = 4_096
        let store = try JSONFileDataStore(configuration)
        var tokens: [JSONFileHistoryToken] = []
        var largestJournal = 0
        for index in 0..<300 {
            tokens.append(
                try #require(try saveMemo("m\(index)", body: String(repeating: "x", count: 40), to: store)))
            let size =
                try FileManager.default.attributesOfItem(atPath: directory.journal.path)[.size] as? Int ?? 0
            largestJournal = max(largestJournal, size)
        }
        #expect(store.statistics.checkpoints > 5)
        // One save's record at most past the threshold before the checkpoint that follows it.
        #expect(largestJournal < 4_096 + 1_024, "largest journal: \(largestJournal) bytes")

        let reopened = try JSONFileDataStore(configuration)
        #expect(try reopened.modelCount() == 300)
        #expect(try reopened.fetchHistory(.init()).map(\.token) == tokens)
        // Tokens from before any checkpoint keep working.
        let after = try reopened.fetchHistory(
            HistoryDescriptor(predicate: HistoryPredicates.after(tokens[10])))
        #expect(after.count == 289)
    }

    @Test func aThresholdBelowOneByteIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = JSONFileStoreConfiguration(name: "memos", directory: directory.url)
        configuration.checkpointJournalBytes = 0
        #expect {
            try JSONFileDataStore(configuration)
        } throws: { ($0 as? DataStoreError)?.code == .invalidConfiguration }
    }
}
