import DataStoreConformance
import DataStoreCore
import Foundation
import InMemoryStorage
import JSONFileStorage
import Testing
import TimeSeriesStorage

/// The suite can fail: each broken store is caught by the check meant to catch it, and the correct store
/// passes that same check.
@Suite struct SabotageTests {
    @Test(arguments: Sabotage.allCases)
    func theIntendedCheckCatchesTheSabotage(_ sabotage: Sabotage) async throws {
        let check = sabotage.caughtBy
        let capabilities = sabotage.capabilities
        try await passesWithTheCorrectStore(check, sabotage: sabotage)
        do {
            try await runAgainstTheSabotagedStore(check, sabotage: sabotage)
            Issue.record("\(check) did not catch \(sabotage)")
        } catch let failure as ConformanceFailure {
            #expect(failure.check == check, "\(failure)")
            #expect(failure.requirement == check.requirement, "\(failure)")
            #expect(!failure.observed.isEmpty && !failure.expected.isEmpty)
        }
        _ = capabilities
    }

    /// The correct store of the kind the sabotage needs passes the same check.
    func passesWithTheCorrectStore(_ check: ConformanceCase, sabotage: Sabotage) async throws {
        let capabilities = sabotage.capabilities
        switch sabotage.correctStore {
        case .inMemory:
            try await DataStoreConformance.run(check, capabilities: capabilities) {
                try InMemoryDataStore(.init(name: $0.storeName, schema: $0.schema))
            }
        case .jsonFile:
            try await DataStoreConformance.run(check, capabilities: capabilities) {
                try JSONFileDataStore(.init(name: $0.storeName, schema: $0.schema, directory: $0.directory))
            }
        case .timeSeries:
            try await DataStoreConformance.run(check, capabilities: capabilities) {
                try TimeSeriesDataStore(.init(name: $0.storeName, schema: $0.schema, directory: $0.directory))
            }
        }
    }

    func runAgainstTheSabotagedStore(_ check: ConformanceCase, sabotage: Sabotage) async throws {
        let capabilities = sabotage.capabilities
        switch sabotage {
        case .tokenCodingLosesTheEpoch:
            try await DataStoreConformance.run(check, capabilities: capabilities) {
                try RetokenedStore<LossyToken>(.init(name: $0.storeName, schema: $0.schema))
            }
        case .malformedTokenDecodes:
            try await DataStoreConformance.run(check, capabilities: capabilities) {
                try RetokenedStore<LenientToken>(.init(name: $0.storeName, schema: $0.schema))
            }
        case .reopenForgetsEverything:
            try await DataStoreConformance.run(check, capabilities: capabilities) {
                try ForgetfulDurableStore(
                    .init(name: $0.storeName, schema: $0.schema, directory: $0.directory))
            }
        case .reopenForgetsPreviousValues:
            try await DataStoreConformance.run(check, capabilities: capabilities) {
                try ForgetfulDurableStore(
                    .init(
                        name: $0.storeName, schema: $0.schema, directory: $0.directory,
                        forgetsOnlyPreviousValues: true))
            }
        default:
            try await DataStoreConformance.run(check, capabilities: capabilities) {
                try SabotagedStore(
                    SabotagedStoreConfiguration(name: $0.storeName, schema: $0.schema, sabotage: sabotage))
            }
        }
    }

    @Test func everyCheckHasASabotagedStoreThatItCatches() {
        let targets = Sabotage.allCases.map(\.caughtBy)
        #expect(Set(targets) == Set(ConformanceCase.allCases))
        #expect(targets.count == Set(targets).count, "two sabotages target one check")
    }

    @Test func aStoreThatThrowsWhileACheckSetsUpIsReportedWithTheOperation() async throws {
        do {
            try await DataStoreConformance.run(.authorRecorded) {
                try RetokenedStore<LenientToken>(.init(name: $0.storeName, schema: Schema(entities: [])))
            }
            Issue.record("a store without the fixture's entity passed")
        } catch let failure as ConformanceFailure {
            #expect(failure.expected == "save(inserted: 1, updated: 0, deleted: 0) to succeed", "\(failure)")
            #expect(failure.observed.contains("ConformanceItem"), "\(failure)")
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

    @Test func everyCheckHasARule() {
        #expect(ConformanceCase.allCases.allSatisfy { !$0.requirement.isEmpty })
    }

    @Test func capabilityFlagsEachGateACheck() {
        for flag in [ConformanceCapabilities.insertOnly, .durable, .multiProcess, .historyUpdates] {
            #expect(
                ConformanceCase.allCases.contains { $0.applies(to: flag) != $0.applies(to: []) }, "\(flag)")
        }
    }

    @Test func reportsPrintTokensCompactlyAndDictionariesSorted() async throws {
        do {
            try await DataStoreConformance.run(.tombstoneValuesAreTheDeletedValues) {
                try SabotagedStore(
                    SabotagedStoreConfiguration(
                        name: $0.storeName, schema: $0.schema, sabotage: .tombstoneHoldsInsertedValues))
            }
            Issue.record("not caught")
        } catch let failure as ConformanceFailure {
            #expect(failure.expected.hasSuffix(#"[name: "a", tag: "second"]"#), "\(failure.expected)")
            #expect(failure.observed == #"[name: "a", tag: "first"]"#, "\(failure.observed)")
        }
        do {
            try await DataStoreConformance.run(.saveReturnsTheTransactionToken) {
                try SabotagedStore(
                    SabotagedStoreConfiguration(
                        name: $0.storeName, schema: $0.schema, sabotage: .saveReturnsThePreviousToken))
            }
            Issue.record("not caught")
        } catch let failure as ConformanceFailure {
            // Observed: what the saves returned; expected: the transactions' own tokens.
            #expect(failure.observed == "[memory:conformance@0, memory:conformance@1, memory:conformance@2]")
            #expect(
                failure.expected.hasSuffix(
                    "[memory:conformance@1, memory:conformance@2, memory:conformance@3]"))
        }
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
final class BlockingStore: HistoryProvidingStore, Sendable {
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
