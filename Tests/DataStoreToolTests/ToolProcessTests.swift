import DataStoreCore
import DataStoreModels
import DataStoreSync
import Foundation
import InMemoryStorage
import JSONFileStorage
import StoreTestSupport
import Testing

/// The built `datastore` executable, run as a subprocess on real stores.
@Suite struct ToolProcessTests {
    /// A store left by `sample-trips --store D`, in a temporary directory.
    final class SampleStore {
        let root: URL
        var trips: URL { root.appendingPathComponent("trips") }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent(
                "datastore-tool-\(UUID().uuidString)")
            let example = try ChildProcess(["--store", root.path], executable: "sample-trips")
            guard example.waitForExit(timeout: .seconds(60)) == 0 else {
                throw Failure(message: "sample-trips failed: \(example.output)")
            }
        }

        deinit { try? FileManager.default.removeItem(at: root) }
    }

    struct Failure: Error { var message: String }

    func datastore(_ arguments: [String]) throws -> (status: Int32?, output: [String]) {
        let tool = try ChildProcess(arguments, executable: "datastore")
        let status = tool.waitForExit(timeout: .seconds(60))
        return (status, tool.output)
    }

    @Test func historyAsJSONListsExactlyTheWidgetsTransactions() throws {
        let sample = try SampleStore()
        let (status, output) = try datastore(["history", sample.trips.path, "--author", "widget", "--json"])
        #expect(status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(output.joined(separator: "\n").utf8))
        let listed = try #require(json as? [[String: Any]])
        let store = try JSONFileDataStore(.init(name: "trips", directory: sample.trips, isReadOnly: true))
        let expected = try store.fetchHistory(.init()).filter { $0.author == "widget" }
        #expect(listed.map { $0["sequence"] as? Int } == expected.map { Int($0.token.sequence) })
        #expect(listed.allSatisfy { $0["author"] as? String == "widget" })
        let changes = listed.flatMap { $0["changes"] as? [[String: Any]] ?? [] }
        // The widget confirms one accommodation and deletes another; deleting it nullifies its trip's
        // `livingAccommodation` in the same transaction (the inverse's default delete rule).
        #expect(changes.compactMap { $0["kind"] as? String } == ["update", "delete", "update"])
        #expect(changes.last?["entity"] as? String == "Trip")
        #expect(changes.last?["updatedAttributes"] as? [String] == ["livingAccommodation"])
    }

    @Test func historyWithValuesShowsOldAndNewValues() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "datastore-audit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let context = ModelContext(try musicContainer(directory))
            let list = Playlist(name: "road trip", rating: 1)
            context.insert(list)
            try context.save()
            list.rating = 4
            list.name = "long road trip"
            try context.save()
            context.delete(list)
            try context.save()
        }
        let store = directory.appendingPathComponent("music").path
        let (status, output) = try datastore(["history", store, "--values"])
        #expect(status == 0)
        #expect(output.first?.hasSuffix("VALUES (old → new)") == true)
        #expect(
            output.contains { $0.hasSuffix("name: road trip → long road trip, rating: 1 → 4") }, "\(output)")
        #expect(
            output.contains { $0.hasSuffix("name=long road trip rating=4 songs=[] → (deleted)") }, "\(output)"
        )

        let (jsonStatus, lines) = try datastore(["history", store, "--values", "--jsonl"])
        #expect(jsonStatus == 0)
        let update = try #require(lines.dropFirst().first)
        let row = try #require(try JSONSerialization.jsonObject(with: Data(update.utf8)) as? [String: Any])
        let change = try #require((row["changes"] as? [[String: Any]])?.first)
        #expect((change["previousValues"] as? [String: Any])?.keys.sorted() == ["name", "rating"])
        #expect((change["values"] as? [String: Any])?.keys.sorted() == ["name", "rating"])
        // Without --values, the output stays as it was.
        let (_, plain) = try datastore(["history", store, "--jsonl"])
        #expect(!plain.contains { $0.contains("previousValues") })
    }

    /// A device store that synced shows its cursors: how far it pulled, and how far it noted its pushes.
    @Test func infoShowsASyncedStoresCursors() throws {
        let server = try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips))
        let lab = try SyncLab(server: server)
        defer { lab.remove() }
        let device = try lab.device("phone")
        try device.edit { $0.insert(SyncTrip(name: "Lisbon", destination: "Lisbon", nights: 3)) }
        try device.sync()
        try device.edit { try #require(try device.trip("Lisbon", in: $0)).nights = 4 }
        try device.sync()
        let pulled = try #require(device.engine.status.pulledToken)
        let (status, output) = try datastore(["info", lab.directory.appendingPathComponent("phone").path])
        #expect(status == 0)
        #expect(output.contains { $0.hasPrefix("sync cursor pull ") && $0.hasSuffix(pulled) }, "\(output)")
        #expect(output.contains { $0.hasPrefix("sync cursor pushed ") }, "\(output)")
    }

    @Test func infoReportsTheCounts() throws {
        let sample = try SampleStore()
        let (status, output) = try datastore(["info", sample.trips.path])
        #expect(status == 0)
        func value(_ label: String) -> String? {
            output.first { $0.hasPrefix(label + " ") }.map {
                $0.dropFirst(label.count).trimmingCharacters(in: .whitespaces)
            }
        }
        let store = try JSONFileDataStore(.init(name: "trips", directory: sample.trips, isReadOnly: true))
        #expect(value("backend") == "jsonfile")
        #expect(value("store") == "trips")
        #expect(value("models: Trip") == "3")
        #expect(value("models: LivingAccommodation") == "2")
        #expect(value("history transactions") == String(try store.fetchHistory(.init()).count))
        #expect(value("epoch") == (try store.currentToken().epoch.uuidString))
        #expect(
            value("schema entities")
                == (try store.recordedSchema()?.entities.map(\.name).joined(separator: ", ")))
    }

    @Test func schemaPrintsWhatTheStoreRecords() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "datastore-schema-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let seed = try ChildProcess(
            ["seed-v1-trips", directory.path, "4"], executable: "datastore-test-process")
        #expect(seed.waitForExit(timeout: .seconds(60)) == 0)
        let migrate = try ChildProcess(
            ["migrate-trips", directory.path], executable: "datastore-test-process")
        #expect(migrate.waitForExit(timeout: .seconds(60)) == 0)
        let (status, output) = try datastore(["schema", directory.path])
        #expect(status == 0)
        #expect(output.first == "version  3.0.0")
        #expect(output.contains("entity Trip"))
        #expect(output.contains { $0.hasPrefix("  name: string  unique") })
        #expect(output.contains { $0.hasPrefix("  startDate: date  originalName: start_date") })
        #expect(!output.contains { $0.contains("start_date:") })
    }

    @Test func schemaPrintsTheSampleTripsRelationships() throws {
        let sample = try SampleStore()
        let (status, output) = try datastore(["schema", sample.trips.path])
        #expect(status == 0)
        #expect(
            output.contains(
                "  livingAccommodation: relationship to LivingAccommodation  deleteRule: cascade  inverse: trip"
            ))
        #expect(
            output.contains(
                "  bucketList: relationship to [BucketListItem]  deleteRule: cascade  inverse: trip"))
        #expect(output.contains("  trip: relationship to Trip  deleteRule: nullify  inverse: bucketList"))
    }

    @Test func tailPrintsAnotherProcessesCommitAndExitsZeroOnInterrupt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "datastore-tail-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try JSONFileDataStore(.init(name: "entries", schema: Entry.schema, directory: directory))
        let tail = try ChildProcess(["tail", directory.path], executable: "datastore")
        #expect(tail.waitForLines(2, timeout: .seconds(30)))  // the banner and the header
        let writer = try ChildProcess(["write-loop", "jsonfile", directory.path, "other", "1"])
        #expect(writer.waitForExit(timeout: .seconds(60)) == 0)
        #expect(tail.waitForLines(5, timeout: .seconds(20)))  // three entries of transaction 1
        #expect(tail.output.dropFirst(2).allSatisfy { $0.contains("  1  other  ") && $0.contains("insert") })
        tail.interrupt()
        #expect(tail.waitForExit(timeout: .seconds(20)) == 0)
    }

    @Test func verifyPassesASoundStoreAndNamesTheFileAndOffsetOfAFlippedByte() throws {
        let sample = try SampleStore()
        let sound = try datastore(["verify", sample.trips.path])
        #expect(sound.status == 0)
        #expect(sound.output.first?.hasPrefix("OK: jsonfile store 'trips'") == true)

        // A copy with one byte flipped inside the second record.
        let copy = sample.root.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: sample.trips, to: copy)
        let journal = copy.appendingPathComponent("journal.jsonl")
        var bytes = try recordBytes(of: journal)
        let secondRecord = try #require(bytes.firstIndex(of: UInt8(ascii: "\n"))) + 1
        bytes[secondRecord + 60] ^= 0x01
        try bytes.write(to: journal)
        let before = try recordBytes(of: journal)
        let broken = try datastore(["verify", copy.path])
        #expect(broken.status == 1)
        #expect(broken.output.first?.contains("journal.jsonl at byte offset \(secondRecord)") == true)
        #expect(try recordBytes(of: journal) == before)  // verify never writes
    }

    @Test func compactAfterDeleteHistoryShrinksTheFilesAndEverythingStillReadsBack() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "datastore-compact-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try JSONFileDataStore(.init(name: "entries", schema: Entry.schema, directory: directory))
        var tokens: [JSONFileHistoryToken] = []
        for round in 0..<100 {
            let result = try store.save(
                DataStoreSaveChangesRequest(
                    inserted: Entry.batch(store: "entries", writer: "w", round: round)))
            tokens.append(try #require(result.token))
        }
        let sizeBefore = try directorySize(directory)
        let cut = String(decoding: try JSONEncoder().encode(tokens[79]), as: UTF8.self)
        let (status, output) = try datastore(["compact", directory.path, "--history-before", cut])
        #expect(status == 0, "\(output)")
        #expect(try directorySize(directory) < sizeBefore)
        #expect(try datastore(["verify", directory.path]).status == 0)
        let reopened = try JSONFileDataStore(
            .init(name: "entries", schema: Entry.schema, directory: directory, isReadOnly: true))
        #expect(try reopened.fetchHistory(.init()).map(\.token) == Array(tokens[79...]))
        #expect(try reopened.modelCount() == 300)
    }

    @Test func unknownCommandsWrongPathsAndMalformedTokensExitTwo() throws {
        #expect(try datastore(["frobnicate"]).status == 2)
        #expect(try datastore(["info", "/nonexistent/store"]).status == 2)
        #expect(try datastore(["info"]).status == 2)
        let sample = try SampleStore()
        #expect(try datastore(["history", sample.trips.path, "--after", #"{"v":1"#]).status == 2)
        #expect(try datastore(["history", "--help"]).status == 0)
    }

    func directorySize(_ url: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: url.path).reduce(0) { total, name in
            total
                + ((try FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(name).path)[
                    .size] as? Int) ?? 0)
        }
    }

    /// A JSON file store of ten saves, with saves 3 and 5 deleted (holes in the middle of history).
    func storeWithAHoleInHistory() throws -> (URL, [JSONFileHistoryToken]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "datastore-hole-\(UUID().uuidString)")
        let store = try JSONFileDataStore(.init(name: "entries", schema: Entry.schema, directory: directory))
        var tokens: [JSONFileHistoryToken] = []
        for round in 0..<10 {
            let result = try store.save(
                DataStoreSaveChangesRequest(
                    editingState: EditingState(author: round == 2 || round == 4 ? "draft" : "app"),
                    inserted: Entry.batch(store: "entries", writer: "w", round: round)))
            tokens.append(try #require(result.token))
        }
        // Removes transactions 3 and 5: 1, 2, 4 stay, and tokens before 5 expire.
        try store.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.author == "draft" }))
        return (directory, tokens)
    }

    @Test func verifyAcceptsHistoryDeletedInTheMiddle() throws {
        let (directory, _) = try storeWithAHoleInHistory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try datastore(["verify", directory.path])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func infoShowsAnOldestTokenThatIsStillUsable() throws {
        let (directory, _) = try storeWithAHoleInHistory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, output) = try datastore(["info", directory.path])
        #expect(status == 0)
        let line = try #require(output.first { $0.hasPrefix("oldest usable token") }, "\(output)")
        let json = String(line.dropFirst("oldest usable token".count)).trimmingCharacters(in: .whitespaces)
        let token = try HistoryTokenCoding.decode(JSONFileHistoryToken.self, fromJSON: Data(json.utf8))
        let store = try JSONFileDataStore(
            .init(name: "entries", schema: Entry.schema, directory: directory, isReadOnly: true))
        // Using it does not throw historyTokenExpired, and it reads what follows it.
        #expect(
            try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > token })).count == 5)
    }

    @Test func repairCutsADamagedJournalBackAndKeepsTheRemovedBytes() throws {
        let sample = try SampleStore()
        let journal = sample.trips.appendingPathComponent("journal.jsonl")
        var bytes = try recordBytes(of: journal)
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let last = lines.dropLast(2).reduce(0) { $0 + $1.count + 1 }
        bytes[last + 40] ^= 0x04  // the last complete record: damage, not a torn tail
        try bytes.write(to: journal)
        #expect(try datastore(["verify", sample.trips.path]).status == 1)

        let repaired = try datastore(["repair", sample.trips.path])
        #expect(repaired.status == 0, "\(repaired.output)")
        let sideFiles = try FileManager.default.contentsOfDirectory(atPath: sample.trips.path)
            .filter { $0.hasPrefix("journal.jsonl.damaged-") }
        #expect(sideFiles.count == 1)
        let kept = try Data(contentsOf: sample.trips.appendingPathComponent(try #require(sideFiles.first)))
        #expect(kept == bytes[last...])
        #expect(try datastore(["verify", sample.trips.path]).status == 0)
        // A second repair finds nothing to do.
        let again = try datastore(["repair", sample.trips.path])
        #expect(again.status == 0 && again.output.first?.contains("nothing to repair") == true)
    }
}
