import DataStoreCore
import Foundation
import Testing

/// `DataStoreError` is a struct that can gain conditions without breaking clients; these tests pin down the
/// matching and equality that clients rely on.
@Suite struct DataStoreErrorTests {
    func expired(_ reason: HistoryTokenExpiry) throws {
        throw DataStoreError.historyTokenExpired(
            store: "trips", tokenSequence: 3, oldestValidSequence: 9, reason: reason)
    }

    @Test func catchByConditionMatchesWhateverTheDetails() throws {
        for reason in [
            HistoryTokenExpiry.historyDeleted,
            .storeErasedOrRecreated(tokenEpoch: UUID(), storeEpoch: UUID()),
        ] {
            var caught = false
            do {
                try expired(reason)
            } catch DataStoreError.storeLocked {
                Issue.record("another condition matched")
            } catch DataStoreError.historyTokenExpired {
                caught = true
            }
            #expect(caught)
        }
    }

    @Test func detailsAreReadableFromTheCaughtValue() {
        let error = DataStoreError.corruptStoreFile(
            path: "/s/journal.jsonl", offset: 42, reason: "bad checksum")
        #expect(error.code == .corruptStoreFile)
        #expect(error.path == "/s/journal.jsonl" && error.offset == 42 && error.reason == "bad checksum")
        #expect(error.store == nil && error.entity == nil)
        #expect(error.description.contains("byte offset 42"))
        if case DataStoreError.corruptStoreFile = error {} else { Issue.record("case pattern did not match") }
        if case DataStoreError.storeLocked = error { Issue.record("case pattern matched another code") }
        let thrown: any Error = error
        if case .corruptStoreFile = thrown as? DataStoreError {
        } else {
            Issue.record("optional pattern did not match")
        }
    }

    @Test func equalityComparesDetailsButNotTheUnderlyingError() {
        let full = DataStoreError.storageUnavailable(
            path: "/s", reason: "write failed", underlyingError: POSIXError(.ENOSPC))
        let bare = DataStoreError.storageUnavailable(path: "/s", reason: "write failed")
        #expect(full == bare)
        #expect(Set([full, bare]).count == 1)
        #expect(full != DataStoreError.storageUnavailable(path: "/t", reason: "write failed"))
        #expect((full.underlyingError as? POSIXError)?.code == .ENOSPC)
    }

    @Test func aCodeFromElsewhereStillDescribesItself() {
        let custom = DataStoreError(.init("replicaLagging"), store: "remote", reason: "12 s behind")
        #expect(custom.description == "replicaLagging: store 'remote': 12 s behind")
        #expect(!(DataStoreError.historyTokenExpired ~= custom))
        #expect(DataStoreError(.init("replicaLagging")) ~= custom)
    }

    @Test func erasedStoreTokensAreSingledOut() {
        let erased = DataStoreError.historyTokenExpired(
            store: "s", tokenSequence: 1, oldestValidSequence: 0,
            reason: .storeErasedOrRecreated(tokenEpoch: UUID(), storeEpoch: UUID()))
        let trimmed = DataStoreError.historyTokenExpired(store: "s", tokenSequence: 1, oldestValidSequence: 5)
        #expect(erased.isFromErasedOrRecreatedStore)
        #expect(!trimmed.isFromErasedOrRecreatedStore)
        #expect(trimmed.tokenExpiry == .historyDeleted)
    }
}
