import DataStoreConformance
import DataStoreCore
import Foundation
import InMemoryStorage
import JSONFileStorage
import Testing

/// The suite can fail: each broken store is caught by the check meant to catch it, and the correct store
/// passes that same check.
@Suite struct SabotageTests {
    @Test(arguments: Sabotage.allCases)
    func theIntendedCheckCatchesTheSabotage(_ sabotage: Sabotage) async throws {
        let check = sabotage.caughtBy
        let capabilities = sabotage.capabilities
        try await DataStoreConformance.run(check, capabilities: capabilities) {
            try InMemoryDataStore(.init(name: $0.storeName, schema: $0.schema))
        }

        do {
            try await DataStoreConformance.run(check, capabilities: capabilities) {
                try SabotagedStore(
                    SabotagedStoreConfiguration(name: $0.storeName, schema: $0.schema, sabotage: sabotage))
            }
            Issue.record("\(check) did not catch \(sabotage)")
        } catch let failure as ConformanceFailure {
            #expect(failure.check == check)
            #expect(failure.requirement == check.requirement)
            #expect(!failure.observed.isEmpty && !failure.expected.isEmpty)
        }
    }

    /// Recorded values: checked on the JSON file store, which records them, against a wrapper that claims
    /// every value on updates.
    @Test func recordedValuesAreCheckedExactly() async throws {
        try await DataStoreConformance.run(.recordedValuesExact) {
            try JSONFileDataStore(.init(name: $0.storeName, schema: $0.schema, directory: $0.directory))
        }
        do {
            try await DataStoreConformance.run(.recordedValuesExact) {
                try SabotagedValueStore(.init(name: $0.storeName, schema: $0.schema, directory: $0.directory))
            }
            Issue.record("recordedValuesExact did not catch values recorded for unchanged attributes")
        } catch let failure as ConformanceFailure {
            #expect(failure.check == .recordedValuesExact)
        }
    }

    @Test func aStoreThatBlocksIsReportedAsATimeoutNamingTheCheck() async throws {
        // The store blocks each save for two seconds; a 300 ms limit must report a timeout, not a pass.
        do {
            try await DataStoreConformance.run(.authorRecorded, timeLimit: .milliseconds(300)) {
                try BlockingStore(BlockingStoreConfiguration(name: $0.storeName, schema: $0.schema))
            }
            Issue.record("the blocking store passed")
        } catch let failure as ConformanceFailure {
            #expect(failure.check == .authorRecorded)
            #expect(failure.expected.contains("finish within"))
        }
    }

    @Test func failuresReadAsAReportNamingCheckRuleExpectationAndObservation() {
        let failure = ConformanceFailure(
            check: .authorRecorded, requirement: ConformanceCase.authorRecorded.requirement,
            expected: "authors: [\"widget\"]",
            observed: "[nil]")
        #expect(failure.description.contains("'authorRecorded'"))
        #expect(failure.description.contains("Rule:"))
        #expect(failure.description.contains("Observed: [nil]"))
    }

    @Test func runAllCollectsFailuresInsteadOfStopping() async {
        let failures = await DataStoreConformance.runAll {
            try SabotagedStore(
                SabotagedStoreConfiguration(
                    name: $0.storeName, schema: $0.schema, sabotage: .authorNotRecorded))
        }
        #expect(failures.map(\.check).contains(.authorRecorded))
        #expect(!failures.map(\.check).contains(.insertThenFetch))
    }

    @Test func thereAreAtLeastFortyChecksAndEveryOneHasARule() {
        #expect(ConformanceCase.allCases.count >= 40)
        #expect(ConformanceCase.allCases.allSatisfy { !$0.requirement.isEmpty })
        #expect(Sabotage.allCases.count >= 8)
        #expect(Set(Sabotage.allCases.map(\.caughtBy)).count == Sabotage.allCases.count)
        #expect(Set(Sabotage.allCases.map(\.caughtBy)).count == Sabotage.allCases.count)
    }

    @Test func capabilitiesDecideWhichChecksApply() {
        #expect(!ConformanceCase.updatedAttributesExact.applies(to: .insertOnly))
        #expect(ConformanceCase.insertOnlyRejectsUpdatesAtomically.applies(to: .insertOnly))
        #expect(!ConformanceCase.insertOnlyRejectsUpdatesAtomically.applies(to: []))
        #expect(ConformanceCase.reopenKeepsDataHistoryAndTokens.applies(to: .durable))
        #expect(!ConformanceCase.reopenKeepsDataHistoryAndTokens.applies(to: []))
    }

    /// The listing in Docs/WritingABackend.md names exactly the checks in `ConformanceCase.allCases`.
    @Test func theDocumentedListingMatchesTheCaseList() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Docs/WritingABackend.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let listing = try #require(text.range(of: "## 5. Every check")).upperBound
        let listed = text[listing...].split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `") else { return nil }
            return line.dropFirst(3).split(separator: "`").first.map(String.init)
        }
        #expect(listed == ConformanceCase.allCases.map(\.rawValue))
    }
}

struct BlockingStoreConfiguration: DataStoreConfiguration {
    typealias Store = BlockingStore
    var name: String
    var schema: Schema?
}

/// A store whose saves block for two seconds: long past the test's time limit, short enough to end.
final class BlockingStore: DataStore, HistoryProviding, Sendable {
    typealias Token = InMemoryHistoryToken
    typealias HistoryType = InMemoryHistoryTransaction
    let configuration: BlockingStoreConfiguration
    let base: InMemoryDataStore
    var identifier: String { base.identifier }
    var schema: Schema { base.schema }

    init(_ configuration: BlockingStoreConfiguration) throws {
        self.configuration = configuration
        base = try InMemoryDataStore(
            InMemoryStoreConfiguration(name: configuration.name, schema: configuration.schema))
    }

    func fetch<Model: PersistentModel>(_ request: DataStoreFetchRequest<Model>) throws -> DataStoreFetchResult
    {
        try base.fetch(request)
    }

    func save(_ request: DataStoreSaveChangesRequest) throws -> DataStoreSaveChangesResult<
        InMemoryHistoryToken
    > {
        Thread.sleep(forTimeInterval: 2)
        return try base.save(request)
    }

    func erase() throws { try base.erase() }
    func fetchHistory(_ descriptor: HistoryDescriptor<InMemoryHistoryTransaction>) throws
        -> [InMemoryHistoryTransaction]
    {
        try base.fetchHistory(descriptor)
    }
    func deleteHistory(_ descriptor: HistoryDescriptor<InMemoryHistoryTransaction>) throws {
        try base.deleteHistory(descriptor)
    }
}
