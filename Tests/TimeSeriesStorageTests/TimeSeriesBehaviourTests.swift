import DataStoreCore
import Foundation
import StoreTestSupport
import Testing
import TimeSeriesStorage

@Suite struct TimeSeriesBehaviourTests {
    /// The bytes of every file under a directory, to show that nothing was written.
    func fingerprint(_ directory: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let name = enumerator?.nextObject() as? String {
            let path = directory.appendingPathComponent(name).path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
                !isDirectory.boolValue,
                !isLockFile(name)
            {
                result[name] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return result
    }

    @Test func aSaveMixingInsertsWithAnUpdateKeepsNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try TimeSeriesDataStore(.readings(directory.url))
        let start = Date().addingTimeInterval(-600)
        try append(readings(0..<10, from: start), to: store)
        let files = try fingerprint(directory.url)
        let history = try store.fetchHistory(.init())
        let existing = readings(0..<1, from: start)[0]

        #expect(throws: DataStoreError.unsupportedChange(store: "sensors", kind: .update, entity: "Reading"))
        {
            try store.save(
                DataStoreSaveChangesRequest(inserted: readings(10..<20, from: start), updated: [existing]))
        }
        #expect(throws: DataStoreError.unsupportedChange(store: "sensors", kind: .delete, entity: "Reading"))
        {
            try store.save(
                DataStoreSaveChangesRequest(inserted: readings(10..<20, from: start), deleted: [existing]))
        }
        #expect(
            try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Reading>())).snapshots.count
                == 10)
        #expect(try store.fetchHistory(.init()) == history)
        #expect(try fingerprint(directory.url) == files)
    }

    @Test func aCommitWindowFoldsAThousandAppendsIntoOneTransaction() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let windowed = try TimeSeriesDataStore(
            .readings(directory.url.appendingPathComponent("windowed"), window: 3_600))
        let start = Date().addingTimeInterval(-2_000)
        for index in 0..<1_000 {
            #expect(try append(readings(index..<(index + 1), from: start), to: windowed) == nil)
        }
        #expect(try windowed.fetchHistory(.init()).isEmpty)  // nothing committed until the window closes
        let token = try #require(try windowed.flush())
        let history = try windowed.fetchHistory(.init())
        #expect(history.count == 1)
        #expect(history.first?.changes.count == 1_000)
        #expect(history.first?.changes.allSatisfy { $0.kind == .insert } == true)
        #expect(history.first?.token == token)

        let plain = try TimeSeriesDataStore(.readings(directory.url.appendingPathComponent("plain")))
        for index in 0..<1_000 { try append(readings(index..<(index + 1), from: start), to: plain) }
        #expect(try plain.fetchHistory(.init()).count == 1_000)
    }

    @Test func aWindowClosesAtTheFirstSaveAfterItEnds() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try TimeSeriesDataStore(.readings(directory.url, window: 0.05))
        let start = Date().addingTimeInterval(-100)
        #expect(try append(readings(0..<5, from: start), to: store) == nil)
        try await Task.sleep(for: .milliseconds(80))
        let token = try append(readings(5..<6, from: start), to: store)
        #expect(token?.sequence == 1)
        #expect(try store.fetchHistory(.init()).map(\.changes.count) == [5])
        try store.flush()
        #expect(try store.fetchHistory(.init()).map(\.changes.count) == [5, 1])
    }

    @Test func retentionByAgeRemovesWholeSegmentsAndExpiresOlderTokens() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let now = Date()
        var configuration = TimeSeriesStoreConfiguration.readings(directory.url, span: 600)
        configuration.acceptedLateness = 86_400
        let writer = try TimeSeriesDataStore(configuration)
        // Six hours of samples, one commit per ten minutes of sample time.
        var tokens: [TimeSeriesHistoryToken] = []
        for block in 0..<36 {
            let first = block * 600
            tokens.append(
                try #require(
                    try append(
                        readings(first..<(first + 600), from: now.addingTimeInterval(-21_600)), to: writer)))
        }
        let segmentsBefore = try directory.segmentFiles()
        #expect(segmentsBefore.count == 36)

        // Reopen with a two-hour maximum age and apply it.
        configuration.retention = .init(maximumAge: 7_200)
        let store = try TimeSeriesDataStore(configuration)
        try store.applyRetention()
        let remaining = try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Reading>()))
            .snapshots
        let cutoff = now.addingTimeInterval(-7_200 - 600)  // one segment span of slack at the boundary
        #expect(
            remaining.allSatisfy { snapshot in
                guard case .date(let time) = snapshot[attribute: "timestamp"] else { return false }
                return time >= cutoff
            })
        #expect(remaining.count < 36 * 600 && remaining.count >= 12 * 600)
        let removedFiles = Set(segmentsBefore).subtracting(try directory.segmentFiles())
        #expect(removedFiles.count == 36 - (try directory.segmentFiles()).count)
        #expect(removedFiles.count >= 23)

        let history = try store.fetchHistory(.init())
        let firstKept = try #require(history.first?.token.sequence)
        let old = tokens[0]
        #expect {
            try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > old }))
        } throws: { error in
            guard let error = error as? DataStoreError else { return false }
            return error.code == .historyTokenExpired && error.tokenSequence == 1 && error.store == "sensors"
        }
        // tokens[i] has sequence i + 1: this is the last removed transaction's token, which stays valid.
        let recent = tokens[Int(firstKept) - 2]
        #expect(
            try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > recent })) == history)
        // The other process sees the same.
        #expect(try writer.fetchHistory(.init()) == history)
    }

    @Test func retentionBySizeKeepsTheTotalUnderTheLimit() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let start = Date().addingTimeInterval(-20_000)
        var configuration = TimeSeriesStoreConfiguration.readings(directory.url, span: 600)
        configuration.retention = .init(maximumSize: 200_000)
        let store = try TimeSeriesDataStore(configuration)
        var tokens: [TimeSeriesHistoryToken] = []
        for block in 0..<30 {
            tokens.append(
                try #require(
                    try append(readings((block * 600)..<(block * 600 + 600), from: start), to: store)))
        }
        let sizes = try directory.segmentFiles().map { name in
            try FileManager.default.attributesOfItem(
                atPath: directory.segments.appendingPathComponent(name).path)[.size] as? Int ?? 0
        }
        #expect(sizes.reduce(0, +) <= 200_000)
        #expect(sizes.count < 30)
        let history = try store.fetchHistory(.init())
        #expect(history.last?.token == tokens.last)
        let first = tokens[0]
        #expect(throws: DataStoreError.self) {
            try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > first }))
        }
    }

    @Test func deleteHistoryTakesOnlyTheOldestTransactions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try TimeSeriesDataStore(.readings(directory.url, span: 60))
        let start = Date().addingTimeInterval(-3_000)
        var tokens: [TimeSeriesHistoryToken] = []
        for block in 0..<10 {
            tokens.append(
                try #require(
                    try append(
                        readings((block * 100)..<(block * 100 + 100), from: start), to: store,
                        author: block.isMultiple(of: 2) ? "a" : "b")))
        }
        let before = try store.fetchHistory(.init())
        #expect(
            throws: DataStoreError.historyDeletionUnsupported(
                store: "sensors",
                reason: "a time-series store deletes only its oldest transactions, up to a token")
        ) {
            try store.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.author == "b" }))
        }
        #expect(try store.fetchHistory(.init()) == before)
        let cut = tokens[3]
        try store.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.token <= cut }))
        #expect(try store.fetchHistory(.init()).map(\.token) == Array(tokens[4...]))
        #expect(
            try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Reading>())).snapshots.count
                == 600)
    }

    @Test func badInputGetsTypedErrors() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Retention and spans must be positive.
        for retention in [
            TimeSeriesStoreConfiguration.RetentionPolicy(maximumAge: 0), .init(maximumAge: -5),
            .init(maximumSize: 0),
        ] {
            #expect {
                try TimeSeriesDataStore(
                    .readings(directory.url.appendingPathComponent("r"), retention: retention))
            } throws: { error in
                if case DataStoreError.invalidConfiguration = error { return true }
                return false
            }
        }
        #expect(throws: DataStoreError.self) { try TimeSeriesDataStore(.readings(directory.url, span: 0)) }

        // Samples far outside the lateness window, or in the future, are refused whole.
        let store = try TimeSeriesDataStore(.readings(directory.url))
        let now = Date()
        try append(readings(0..<10, from: now.addingTimeInterval(-100)), to: store)
        for start in [now.addingTimeInterval(-100_000), now.addingTimeInterval(86_400)] {
            #expect {
                try append(
                    readings(10..<12, from: now.addingTimeInterval(-90)) + readings(12..<13, from: start),
                    to: store)
            } throws: { error in
                guard let error = error as? DataStoreError, error.code == .invalidSave,
                    let reason = error.reason
                else { return false }
                return reason.contains("lateness") || reason.contains("future")
            }
        }
        #expect(try store.fetchHistory(.init()).count == 1)
        // A sample without a date in the timestamp attribute.
        var undated = readings(20..<21, from: now)[0]
        undated.values["timestamp"] = .string("noon")
        #expect(throws: DataStoreError.self) { try append([undated], to: store) }

        // A token of another store.
        let other = try TimeSeriesDataStore(
            TimeSeriesStoreConfiguration(
                name: "other", schema: Schema([Reading.self]),
                directory: directory.url.appendingPathComponent("o")))
        let foreign = TimeSeriesHistoryToken(
            storeIdentifier: "other", epoch: try other.currentToken().epoch, sequence: 0)
        #expect(throws: DataStoreError.historyTokenFromAnotherStore(store: "sensors", tokenStore: "other")) {
            try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > foreign }))
        }
    }

    @Test func aSegmentRemovedByHandOrTruncatedIsReportedNotHidden() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try TimeSeriesDataStore(.readings(directory.url, span: 60))
        let start = Date().addingTimeInterval(-3_000)
        for block in 0..<5 {
            try append(readings((block * 100)..<(block * 100 + 100), from: start), to: store)
        }
        let segments = try directory.segmentFiles()
        #expect(segments.count == 5)

        // A torn tail on the segment being written is cut back by the next writer.
        let active = directory.segments.appendingPathComponent(try #require(segments.last))
        let whole = try Data(contentsOf: active)
        let handle = try FileHandle(forWritingTo: active)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"crc":"12"#.utf8))
        try handle.close()
        let reopened = try TimeSeriesDataStore(.readings(directory.url, span: 60))
        #expect(try Data(contentsOf: active) == whole)
        #expect(try reopened.fetchHistory(.init()).count == 5)

        // A closed segment cut short is corruption, named with its path.
        let closed = directory.segments.appendingPathComponent(segments[1])
        let bytes = try Data(contentsOf: closed)
        try bytes.prefix(bytes.count - 10).write(to: closed)
        #expect {
            try TimeSeriesDataStore(.readings(directory.url, span: 60)).fetchHistory(.init())
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .corruptStoreFile else { return false }
            return error.path?.hasSuffix(segments[1]) == true
        }
        // A closed segment removed by hand fails the open, naming it.
        try FileManager.default.removeItem(at: closed)
        #expect {
            try TimeSeriesDataStore(.readings(directory.url, span: 60))
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .corruptStoreFile else { return false }
            return error.path?.hasSuffix(segments[1]) == true && error.reason?.contains("missing") == true
        }
    }
}

extension TimeSeriesBehaviourTests {
    /// The store recognises a replaced index by its inode. Two erases by another instance replace it twice,
    /// and ext4 hands the first one's freed inode to the second: an instance that did not hold its index open
    /// took the new index for the one it read and kept the erased epoch.
    @Test func aReplacedIndexIsNeverTakenForTheOneAnInstanceRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let reader = try TimeSeriesDataStore(.readings(directory.url))
        let writer = try TimeSeriesDataStore(.readings(directory.url))
        let stale = try ReplacedFileRounds.firstStaleRound(
            readerEpoch: { try reader.currentToken().epoch }, writerErase: { try writer.erase() },
            writerEpoch: { try writer.currentToken().epoch })
        #expect(stale == nil, "the reader kept an erased epoch in round \(stale ?? -1)")
        // The rounds catch a store that forgets to hold its file open only where freed inodes come back at
        // once: on ext file systems, check that they do here, so that the test cannot pass vacuously.
        if ReplacedFileRounds.isOnExtFileSystem(directory.url) {
            #expect(
                try ReplacedFileRounds.reusesInodes(in: directory.url),
                "no inode was reused: the rounds tested nothing")
        }
    }
}
