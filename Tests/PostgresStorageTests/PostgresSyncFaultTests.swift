#if PostgreSQL
    import DataStoreCore
    import DataStoreHistory
    import DataStoreSync
    import Foundation
    import JSONFileStorage
    import PostgresStorage
    import StoreTestSupport
    import Testing

    /// The sync under faults (Docs/Sync.md): five device processes, each with its own durable JSON file store,
    /// make random transactions (inserts, updates of notes any device made, deletes) and sync continuously
    /// through one PostgreSQL server, while a nemesis kills devices (`kill -9`, then restarts them), pauses
    /// them (`SIGSTOP`/`SIGCONT`), ends their server connections and restarts the server
    /// (`pg_ctl stop -m immediate`). Then the nemesis stops, the devices sync until a whole round moves
    /// nothing, and a checker reads every store.
    ///
    /// The workloads run one after the other, each with its own nemesis and its own devices (the server is
    /// shared, and a restart would cut into the other's run).
    ///
    /// Runs only when `DATASTORE_SYNC_FAULT_SECONDS` says how long the nemesis runs (`.ci/run` gives it 60 s;
    /// `Scripts/sync-fault-test SECONDS` runs it alone).
    @Suite(.serialized) struct PostgresSyncFaultTests {
        static let seconds = ProcessInfo.processInfo.environment["DATASTORE_SYNC_FAULT_SECONDS"].flatMap(
            Double.init)

        /// The workloads to run, from `DATASTORE_SYNC_FAULT_WORKLOADS` (`notes`, `lists`, `playlists`, `tags`,
        /// `marks`, or several separated by commas; all when unset).
        static let workloads = Set(
            (ProcessInfo.processInfo.environment["DATASTORE_SYNC_FAULT_WORKLOADS"]
                ?? "notes,lists,playlists,tags,marks")
                .split(
                    separator: ","
                ).map(String.init))

        /// Flat notes: inserts, updates and deletes.
        @Test(
            .enabled(if: seconds != nil, "set DATASTORE_SYNC_FAULT_SECONDS to run the fault test"),
            .enabled(if: workloads.contains("notes")))
        func fiveDevicesConvergeUnderFaults() throws {
            try Self.expectClean(
                try SyncFaultRun(seconds: Self.seconds ?? 0, devices: 5, workload: "notes").run())
        }

        /// Trips' lists edited through model contexts: appends, reorders, moves, unlinks, deletes.
        @Test(
            .enabled(if: seconds != nil, "set DATASTORE_SYNC_FAULT_SECONDS to run the fault test"),
            .enabled(if: workloads.contains("lists")))
        func fiveDevicesEditingListsConvergeUnderFaults() throws {
            try Self.expectClean(
                try SyncFaultRun(seconds: Self.seconds ?? 0, devices: 5, workload: "lists").run())
        }

        /// The same edits of playlists, whose lists keep their previous values: a push sends each list as an
        /// edit of its baseline.
        @Test(
            .enabled(if: seconds != nil, "set DATASTORE_SYNC_FAULT_SECONDS to run the fault test"),
            .enabled(if: workloads.contains("playlists")))
        func fiveDevicesEditingPlaylistsConvergeUnderFaults() throws {
            try Self.expectClean(
                try SyncFaultRun(seconds: Self.seconds ?? 0, devices: 5, workload: "playlists").run())
        }

        /// Notes and tags, a many-to-many relationship without previous values, tagged and untagged from either
        /// side, one pair or several per save.
        @Test(
            .enabled(if: seconds != nil, "set DATASTORE_SYNC_FAULT_SECONDS to run the fault test"),
            .enabled(if: workloads.contains("tags")))
        func fiveDevicesTaggingNotesConvergeUnderFaults() throws {
            try Self.expectClean(
                try SyncFaultRun(seconds: Self.seconds ?? 0, devices: 5, workload: "tags").run())
        }

        /// Notes and marks: the tags workload on a many-to-many relationship whose lists keep their previous
        /// values, so that a push reads what a transaction changed in a list from them.
        @Test(
            .enabled(if: seconds != nil, "set DATASTORE_SYNC_FAULT_SECONDS to run the fault test"),
            .enabled(if: workloads.contains("marks")))
        func fiveDevicesMarkingNotesConvergeUnderFaults() throws {
            try Self.expectClean(
                try SyncFaultRun(seconds: Self.seconds ?? 0, devices: 5, workload: "marks").run())
        }

        /// Prints the summary (and appends it to `DATASTORE_SYNC_FAULT_REPORT`) and expects no violation.
        static func expectClean(_ report: SyncFaultRun.Report) throws {
            print(report.summary)
            if let path = ProcessInfo.processInfo.environment["DATASTORE_SYNC_FAULT_REPORT"] {
                let url = URL(fileURLWithPath: path)
                if !FileManager.default.fileExists(atPath: path) {
                    _ = FileManager.default.createFile(atPath: path, contents: nil)
                }
                let handle = try FileHandle(forWritingTo: url)
                defer { try? handle.close() }
                handle.seekToEndOfFile()
                handle.write(Data((report.summary + "\n").utf8))
            }
            #expect(report.violations.isEmpty, "\(report.violations)")
            #expect(report.acknowledged > 0 && report.faults.values.reduce(0, +) > 0, "\(report.summary)")
        }
    }

    /// One run of the fault test: the devices, the nemesis, the quiescing and the checker.
    struct SyncFaultRun {
        let seconds: Double
        let devices: Int
        /// `notes`, or the workload the devices run (`sync-device … lists|playlists|tags|marks`).
        let workload: String

        /// The owners whose lists a list workload edits; `nil` for flat notes.
        var listModel: (any FaultListModel.Type)? { FaultListWorkload.model(workload) }
        var lists: Bool { listModel != nil }
        /// The notes the devices tag (`tags`, or `marks` with previous values); `nil` for another workload.
        var taggedNotes: (any TaggingNote.Type)? { TaggingWorkload.note(workload) }
        var tagging: Bool { taggedNotes != nil }

        /// The items on the trips the server holds before the devices start.
        static let seededItems = ["Kyoto", "Lisbon", "Oslo"].flatMap { trip in
            (0..<4).map { "item-seed-\(trip)-\($0)" }
        }

        var schema: Schema { taggedNotes?.syncSchema ?? listModel?.faultSchema ?? SyncNote.schema }

        /// What a run found.
        struct Report {
            var acknowledged = 0
            var committed = 0
            var serverTransactions = 0
            var faults: [String: Int] = [:]
            var rounds = 0
            var notes = 0
            var violations: [String] = []
            /// The workload: `notes`, `lists`, `playlists`, `tags` or `marks`.
            var workload = "notes"
            /// Whether the run was a list workload: then `notes` counts items.
            var lists: Bool { workload == "lists" || workload == "playlists" }
            /// Whether the run was a tags workload: then `links` counts the pairs.
            var tagging: Bool { TaggingWorkload.note(workload) != nil }
            /// On the tags workload: the pairs tagged at the end.
            var links = 0
            /// On the lists workload: trips the devices made (acknowledged), and how many of them the server
            /// merged into another device's trip of the same name; on the tags workload, the same of tags.
            var tripsMade = 0
            var tripsMerged = 0
            /// Owners some device meant to delete (each deleted at most once).
            var ownersDeleted = 0
            /// Conflicts the devices' last runs decided (a killed run's count is lost with it).
            var conflicts = 0

            var summary: String {
                let faultList = faults.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(
                    separator: ", ")
                return
                    "sync fault test, \(workload): \(acknowledged) transactions acknowledged (\(committed) committed) on the devices, "
                    + "\(serverTransactions) server transactions, \(notes) \(lists ? "items" : "notes") at the end"
                    + (tagging ? " carrying \(links) tags" : "") + "; faults: \(faultList); "
                    + (lists
                        ? "\(tripsMade) trips made, \(tripsMerged) merged into another's, \(ownersDeleted) deleted; "
                        : "")
                    + (tagging
                        ? "\(tripsMade) tags made, \(tripsMerged) merged into another's, \(ownersDeleted) deleted; "
                        : "")
                    + "\(conflicts) conflicts decided by the devices' last runs; "
                    + "quiet after \(rounds) sync rounds; violations: \(violations.count)"
            }
        }

        /// A progress line on standard error, so that a long run shows where it is.
        func say(_ line: String) {
            FileHandle.standardError.write(Data("sync fault test: \(line)\n".utf8))
        }

        func run() throws -> Report {
            let url = try PostgresServer.connectionString
            guard let restart = ProcessInfo.processInfo.environment["DATASTORE_POSTGRES_RESTART"] else {
                throw DataStoreError.invalidConfiguration(
                    reason: "run under Scripts/with-postgres, which sets DATASTORE_POSTGRES_RESTART")
            }
            let namespace = PostgresServer.freshNamespace()
            // The server's tables, made once before the devices start, and the trips the lists workload edits.
            let server = try PostgresDataStore(
                .init(name: "server", schema: schema, connectionString: url, databaseSchema: namespace))
            if let listModel { try seed(listModel, on: server) }
            if let taggedNotes { try seedTags(taggedNotes, on: server) }
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "sync-fault-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // DATASTORE_SYNC_FAULT_KEEP=1 keeps the stores and logs of a failed run, to read them.
            var failed = true
            defer {
                if !failed || ProcessInfo.processInfo.environment["DATASTORE_SYNC_FAULT_KEEP"] == nil {
                    try? FileManager.default.removeItem(at: directory)
                } else {
                    print("kept the run's stores and logs in \(directory.path)")
                }
            }

            var report = Report(workload: workload)
            var runs = [Int](repeating: 0, count: devices)
            var processes: [ChildProcess] = []
            func launch(_ index: Int) throws -> ChildProcess {
                runs[index] += 1
                let process = try ChildProcess(
                    ["sync-device", directory.path, "d\(index)", "\(runs[index])", namespace]
                        + (workload == "notes" ? [] : [workload]),
                    takesCommands: true)
                guard process.waitForLines(1, timeout: .seconds(90)), process.output.first == "READY" else {
                    throw DataStoreError.invalidConfiguration(
                        reason: "device d\(index) did not start: \(process.output)")
                }
                return process
            }
            // Whatever happens, no device outlives the run.
            defer { for process in processes { process.kill9() } }
            for index in 0..<devices { processes.append(try launch(index)) }
            say("\(devices) devices started; the nemesis runs for \(Int(seconds)) s")

            // The nemesis.
            var random = SplitMix64(seed: UInt64(Date().timeIntervalSince1970))
            let end = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < end {
                Thread.sleep(forTimeInterval: Double.random(in: 0.3...1.5, using: &random))
                let index = Int.random(in: 0..<devices, using: &random)
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<3:
                    processes[index].kill9()
                    processes[index].waitForExit(timeout: .seconds(30))
                    processes[index] = try launch(index)
                    report.faults["kills", default: 0] += 1
                case 3..<6:
                    processes[index].suspend()
                    Thread.sleep(forTimeInterval: Double.random(in: 0.2...2, using: &random))
                    processes[index].resume()
                    report.faults["pauses", default: 0] += 1
                case 6..<8:
                    let ended = try? PostgresServer.query(
                        """
                        SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                        WHERE application_name = $1 AND pid <> pg_backend_pid()
                        """, [namespace])
                    report.faults["connection terminations", default: 0] += 1
                    report.faults["sessions ended", default: 0] +=
                        Int(ended?.first?.first.flatMap { $0 } ?? "0") ?? 0
                default:
                    let status = runToCompletion(restart)
                    guard status == 0 else {
                        throw DataStoreError.invalidConfiguration(
                            reason: "the server restart exited with \(status)")
                    }
                    report.faults["server restarts", default: 0] += 1
                }
            }

            say("the nemesis stopped: \(report.faults)")
            let quiescing = ContinuousClock.now
            // Quiesce: edits stop on every device at once, then whole rounds of syncs until one moves nothing.
            // A device answers once the sync under way ends, and after a long run a device can be tens of
            // thousands of transactions behind (a 600-s tags run left one 4,082 unpushed and 52,783 to pull:
            // 69 s alone, longer beside four others), so the wait grows with the run: a device that never
            // answers still fails.
            let patience = Duration.seconds(max(180, 2 * Int(seconds)))
            let quieting = processes.map { $0.send("quiesce") }
            for (index, (process, answered)) in zip(processes, quieting).enumerated() {
                let answer = answered.flatMap { process.answer(after: $0, timeout: patience) }
                guard answer == "QUIET" else {
                    throw DataStoreError.invalidConfiguration(
                        reason: "device d\(index) did not quiesce: \(answer ?? "no answer")")
                }
            }
            var moved = true
            while moved && report.rounds < 40 {
                moved = false
                report.rounds += 1
                // The devices of a round sync at once: one after the other, a round left a core idle while
                // each device caught up alone. A round in which none pushed or read anything still means
                // that every device holds the server's newest state, as nothing changed it meanwhile.
                let sent = processes.map { $0.send("sync") }
                for (process, answered) in zip(processes, sent) {
                    let answer =
                        answered.flatMap { process.answer(after: $0, timeout: patience) } ?? "ERROR no answer"
                    say("round \(report.rounds): \(answer)")
                    let fields = answer.split(separator: " ")
                    if fields.first != "SYNCED" || fields.dropFirst().contains(where: { $0 != "0" }) {
                        moved = true
                    }
                }
            }
            if moved { report.violations.append("the devices did not quiesce within 40 sync rounds") }
            say("quiet after \(report.rounds) rounds, \(ContinuousClock.now - quiescing)")
            for process in processes {
                let answer = process.request("quit", timeout: .seconds(30))
                report.conflicts += answer.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
                process.waitForExit(timeout: .seconds(30))
            }
            for index in 0..<devices { say(failedSyncs(of: "d\(index)", in: directory)) }
            let checking = ContinuousClock.now
            try check(directory: directory, url: url, namespace: namespace, into: &report)
            say("checked in \(ContinuousClock.now - checking)")
            failed = !report.violations.isEmpty
            return report
        }

        /// Three owners with four items each, made on the server by its own app.
        func seed<Model: FaultListModel>(_: Model.Type, on server: PostgresDataStore) throws {
            let context = ModelContext(
                try ModelContainer(
                    for: [Model.self, Model.Item.self], configurations: [ModelConfiguration(store: server)]))
            for name in ["Kyoto", "Lisbon", "Oslo"] {
                let owner = Model.make(name: name, day: 1)
                context.insert(owner)
                for index in 0..<4 { owner.append(Model.makeItem(title: "item-seed-\(name)-\(index)")) }
            }
            try context.save()
        }

        /// What `store` holds, as comparable lines: the notes, or the owners (their attributes and lists) and
        /// the items with their owners.
        func rows(_ store: some HistoryProvidingStore) throws -> [String] {
            if let taggedNotes { return try tagRows(taggedNotes, in: store) }
            guard let listModel else { return try SyncScenarioRows.rows(store) }
            return try rows(of: listModel, in: store)
        }

        func rows<Model: FaultListModel>(of _: Model.Type, in store: some HistoryProvidingStore) throws
            -> [String]
        {
            let context = ModelContext(
                try ModelContainer(
                    for: [Model.self, Model.Item.self], configurations: [ModelConfiguration(store: store)]))
            let owners = try context.fetch(FetchDescriptor<Model>()).map {
                "owner \($0.persistentModelID.primaryKey) \($0.name)|\($0.details)|"
                    + $0.listedItems.map(Model.title(of:)).joined(separator: ",")
            }
            let items = try context.fetch(FetchDescriptor<Model.Item>()).map {
                "item \($0.persistentModelID.primaryKey) \(Model.title(of: $0))|\(Model.trip(of: $0)?.name ?? "-")"
            }
            return (owners + items).sorted()
        }

        /// Convergence, nothing lost, each device transaction in one server transaction, per-device order, and
        /// no echo; on a list workload also ``checkLists(of:directory:server:into:)``.
        func check(directory: URL, url: String, namespace: String, into report: inout Report) throws {
            let server = try PostgresDataStore(
                .init(name: "server", schema: schema, connectionString: url, databaseSchema: namespace))
            let serverRows = try rows(server)
            report.notes = serverRows.count
            let history = try server.fetchHistory(HistoryDescriptor())
            report.serverTransactions = history.count
            // Where each stamp landed on the server, and what the server deleted.
            var landed: [String: [Int]] = [:]
            var deletedOnServer = Set<String>()
            for (position, transaction) in history.enumerated() {
                var stamps = Set<String>()
                for change in transaction.changes {
                    if change.kind == .delete {
                        deletedOnServer.insert(change.changedPersistentIdentifier.primaryKey)
                    }
                    for value in change.values.values {
                        if case .string(let text) = value { stamps.insert(text) }
                    }
                }
                for stamp in stamps { landed[stamp, default: []].append(position) }
            }
            if history.contains(where: { $0.author == "sync" }) {
                report.violations.append("a pulled transaction was pushed back to the server")
            }
            for index in 0..<devices {
                let name = "d\(index)"
                let store = try JSONFileDataStore(
                    .init(name: name, schema: schema, directory: directory.appendingPathComponent(name)))
                let rows = try rows(store)
                if rows != serverRows {
                    let only = Set(rows).symmetricDifference(serverRows).sorted().prefix(10)
                    let deviceHistory = try store.fetchHistory(HistoryDescriptor())
                    let keys = sharingUniqueValues(
                        with: Set(
                            only.compactMap { $0.split(separator: " ").dropFirst().first.map(String.init) }),
                        in: history, deviceHistory)
                    report.violations.append(
                        "\(name) holds \(rows.count) rows, the server \(serverRows.count), and they differ: "
                            + "\(only)\nthe server's history of them and of the models that shared a unique "
                            + "value with them:\n\(trail(of: keys, in: history))"
                            + "\n\(name)'s history of them:\n\(trail(of: keys, in: deviceHistory))")
                    // The whole trail, which the report cuts to the last changes, beside a kept run's stores:
                    // the server's history goes with the server.
                    try Data(
                        ("the server:\n\(trail(of: keys, in: history, limit: .max))\n\(name):\n"
                            + "\(trail(of: keys, in: deviceHistory, limit: .max))\n").utf8
                    ).write(to: directory.appendingPathComponent("\(name)-violation-trail.txt"))
                }
                let acknowledged = try String(
                    contentsOf: directory.appendingPathComponent("\(name).acks"), encoding: .utf8
                )
                .split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
                report.acknowledged += acknowledged.count
                // Every transaction the device committed (acknowledged or not), in its order.
                let committed = try store.fetchHistory(HistoryDescriptor()).filter { $0.author == "app" }
                report.committed += committed.count
                let committedStamps = Set(committed.compactMap { stamp(of: $0) })
                for stamp in acknowledged where !committedStamps.contains(stamp) {
                    report.violations.append("\(stamp) was acknowledged but is not in \(name)'s history")
                }
                var last = -1
                for transaction in committed {
                    guard let stamp = stamp(of: transaction) else { continue }
                    let positions = landed[stamp] ?? []
                    if positions.count > 1 {
                        report.violations.append("\(stamp) is split over server transactions \(positions)")
                    }
                    guard let position = positions.first else {
                        // Only a change the policy drops may vanish: updates and deletes of notes deleted on
                        // the server.
                        let touched = transaction.changes.map(\.changedPersistentIdentifier.primaryKey)
                        if !touched.allSatisfy(deletedOnServer.contains) {
                            let keys = Set(touched)
                            report.violations.append(
                                "\(stamp) by \(name) never reached the server\nthe server's history of what it "
                                    + "touched:\n\(trail(of: keys, in: history))\n\(name)'s history of it:\n"
                                    + "\(trail(of: keys, in: try store.fetchHistory(HistoryDescriptor())))")
                        }
                        continue
                    }
                    if position < last {
                        report.violations.append(
                            "\(stamp) reached the server before an earlier transaction of \(name)")
                    }
                    last = position
                }
                let pushes = history.filter { $0.author == "device:\(name)" }.count
                if pushes != committed.count {
                    report.violations.append(
                        "\(name) committed \(committed.count) transactions; the server holds \(pushes) pushes"
                    )
                }
            }
            if let listModel {
                try checkLists(of: listModel, directory: directory, server: server, into: &report)
            }
            if let taggedNotes {
                try checkTags(taggedNotes, directory: directory, server: server, into: &report)
            }
        }

        /// `keys` and the primary keys of every model that an insert in `server` or `device` gave one of the
        /// unique values of those models' inserts: a device model the server merged into another device's (or
        /// a pull merged into the server's) is read beside the model it became.
        func sharingUniqueValues<Server: HistoryTransaction, Device: HistoryTransaction>(
            with keys: Set<String>, in server: [Server], _ device: [Device]
        ) -> Set<String> {
            var inserts: [(key: String, values: Set<String>)] = []
            func read<Change: HistoryChange>(_ changes: [Change]) {
                for change in changes where change.kind == .insert {
                    let id = change.changedPersistentIdentifier
                    guard let entity = schema.entity(named: id.entityName),
                        let values = (change as? any ValueRecordingHistoryChange)?.values
                    else { continue }
                    let unique = Set(entity.uniqueConstraints.joined()).compactMap { values[$0] }
                    inserts.append((id.primaryKey, Set(unique.map { "\(id.entityName) \($0)" })))
                }
            }
            for transaction in server { read(transaction.changes) }
            for transaction in device { read(transaction.changes) }
            let shared = inserts.filter { keys.contains($0.key) }.reduce(into: Set<String>()) {
                $0.formUnion($1.values)
            }
            return keys.union(inserts.filter { !$0.values.isDisjoint(with: shared) }.map(\.key))
        }

        /// The changes of `history` to the models whose primary keys are `keys` (those `including` accepts), a
        /// line each (every insert and delete, and the last `limit`): what a violation report shows so that a
        /// failed run can be read without running it again.
        func trail<Transaction: HistoryTransaction>(
            of keys: Set<String>, in history: [Transaction], limit: Int = 40,
            including: (Transaction.Change) -> Bool = { _ in true }
        ) -> String {
            // Every insert and delete, however early (a model's life is read from them), and the last `limit`
            // changes.
            var lines: [(text: String, isInsertOrDelete: Bool)] = []
            for (position, transaction) in history.enumerated() {
                for change in transaction.changes
                where keys.contains(change.changedPersistentIdentifier.primaryKey) && including(change) {
                    let values = (change as? any ValueRecordingHistoryChange)?.values ?? [:]
                    lines.append(
                        (
                            "  #\(position) \(transaction.author ?? "-") \(change.kind) "
                                + "\(change.changedPersistentIdentifier.primaryKey) "
                                + "\(change.updatedAttributes.sorted()) "
                                + "\(values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })",
                            change.kind != .update
                        ))
                }
            }
            let recent = max(lines.count - limit, 0)
            return lines.enumerated().filter { $0.offset >= recent || $0.element.isInsertOrDelete }
                .map(\.element.text).joined(separator: "\n")
        }

        /// The stamp a device transaction wrote: on notes every string value it wrote carries it, on lists an
        /// owner's ``FaultListModel/stampName``; `nil` for a delete alone.
        func stamp(of transaction: some HistoryTransaction) -> String? {
            for change in transaction.changes {
                guard let values = (change as? any ValueRecordingHistoryChange)?.values else { continue }
                if let stampName = tagging ? "memo" : listModel?.stampName {
                    if case .string(let text)? = values[stampName] { return text }
                    continue
                }
                for value in values.values { if case .string(let text) = value { return text } }
            }
            return nil
        }

        /// The lists' rules: both sides of every link agree; every item seeded or made by an acknowledged
        /// transaction is held unless some device meant to delete it; nothing is held that no device made; an
        /// item is on no list only when some device meant to take it off. An item some device put on an owner
        /// that some device meant to delete may be gone, or on no list: a delete wins over the edits other
        /// devices make of the owner until they pull it.
        func checkLists<Model: FaultListModel>(
            of _: Model.Type, directory: URL, server: PostgresDataStore, into report: inout Report
        ) throws {
            let stored = try StoredTrips(
                try ModelContainer(
                    for: [Model.self, Model.Item.self], configurations: [ModelConfiguration(store: server)]),
                of: Model.self)
            report.violations += stored.inconsistencies
            var made = Set(Self.seededItems)
            var mustHold = Set(Self.seededItems)
            var deleted = Set<String>()
            var unlinked = Set<String>()
            var tripsMade: [String] = []
            // The items each owner was given (by name), and the owners some device meant to delete: an item put
            // on an owner that a delete reached goes with it (trips) or onto no list (playlists).
            var putInto: [String: Set<String>] = [:]
            var ownersDeleted = Set<String>()
            for index in 0..<devices {
                let acknowledged = Set(try logLines(directory, "d\(index).acks").compactMap(\.first))
                // The last line may be cut short by a kill: its intent is unknown, and nothing acknowledged it.
                for fields in try logLines(directory, "d\(index).intents") where fields.count >= 2 {
                    let titles = fields.dropFirst(2).map(String.init)
                    switch fields[1] {
                    case "insert":
                        made.formUnion(titles)
                        if acknowledged.contains(fields[0]) { mustHold.formUnion(titles) }
                    case "delete": deleted.formUnion(titles)
                    case "unlink": unlinked.formUnion(titles)
                    case "trip" where acknowledged.contains(fields[0]): tripsMade.append(contentsOf: titles)
                    case "into" where !titles.isEmpty:
                        putInto[titles[0], default: []].formUnion(titles.dropFirst())
                    case "deltrip": ownersDeleted.formUnion(titles)
                    default: break
                    }
                }
            }
            report.tripsMade = tripsMade.count
            report.tripsMerged = tripsMade.count - Set(tripsMade).count
            report.ownersDeleted = ownersDeleted.count
            let wentWithTheirOwner = ownersDeleted.reduce(into: Set<String>()) {
                $0.formUnion(putInto[$1] ?? [])
            }
            let held = Set(stored.owners.keys)
            let lost = mustHold.subtracting(deleted).subtracting(held).subtracting(wentWithTheirOwner)
            if !lost.isEmpty {
                report.violations.append(
                    "acknowledged items lost: \(lost.sorted())\n"
                        + (try trails(of: lost, server: server, directory: directory)))
            }
            let unknown = held.subtracting(made)
            if !unknown.isEmpty { report.violations.append("items no device made: \(unknown.sorted())") }
            let offTheirLists = Set(
                stored.owners.filter {
                    $0.value == nil && !unlinked.contains($0.key) && !wentWithTheirOwner.contains($0.key)
                }.keys)
            if !offTheirLists.isEmpty {
                report.violations.append(
                    "items that lost their list: \(offTheirLists.sorted())\n"
                        + (try trails(of: offTheirLists, server: server, directory: directory)))
            }
        }

        /// How many of a device's syncs failed during the run and why, from its `.errors` log: the count of
        /// each error code, with the newest message of each but `storageUnavailable` (the nemesis's restarts
        /// and ended sessions). A device that falls behind its app says here what held it back.
        func failedSyncs(of device: String, in directory: URL) -> String {
            let lines =
                (try? String(
                    contentsOf: directory.appendingPathComponent("\(device).errors"), encoding: .utf8))?
                .split(separator: "\n") ?? []
            guard !lines.isEmpty else { return "\(device): no failed sync" }
            var counts: [Substring: Int] = [:]
            var newest: [Substring: Substring] = [:]
            for line in lines {
                let code = line.prefix { $0 != " " }
                counts[code, default: 0] += 1
                newest[code] = line
            }
            let ranked = counts.sorted { $0.value > $1.value }
            return "\(device): \(lines.count) failed syncs: "
                + ranked.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + ranked.filter { $0.key != "storageUnavailable" }.map {
                    "\n  newest \($0.key): \(newest[$0.key]?.dropFirst($0.key.count + 1).prefix(300) ?? "")"
                }.joined()
        }

        /// The lines of a device's log in `directory` (`d0.acks`, `d0.intents`), each split into its fields.
        func logLines(_ directory: URL, _ name: String) throws -> [[Substring]] {
            try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
                .split(separator: "\n").map { $0.split(separator: " ") }
        }

        /// For a report of items that lost their list: the server's history of the items titled `titles` and
        /// of their owners' lists, and the same in the history of each device that made one of them.
        func trails(of titles: Set<String>, server: PostgresDataStore, directory: URL) throws -> String {
            let history = try server.fetchHistory(HistoryDescriptor())
            var items = Set<String>()
            var owners = Set<String>()
            for transaction in history {
                for change in transaction.changes where change.kind == .insert {
                    guard case .string(let title)? = change.values["title"], titles.contains(title) else {
                        continue
                    }
                    items.insert(change.changedPersistentIdentifier.primaryKey)
                }
            }
            for transaction in history {
                for change in transaction.changes
                where items.contains(change.changedPersistentIdentifier.primaryKey) {
                    for value in change.values.values {
                        owners.formUnion((value.relatedIdentifiers ?? []).map(\.primaryKey))
                    }
                }
            }
            let listName = listModel?.listName ?? ""
            func report<Transaction: HistoryTransaction>(_ history: [Transaction]) -> String
            where Transaction.Change: ValueRecordingHistoryChange {
                "  items:\n\(trail(of: items, in: history, limit: 60))\n  their owners' lists:\n"
                    + trail(of: owners, in: history, limit: 60) {
                        $0.kind != .update || $0.updatedAttributes.contains(listName)
                    }
            }
            var text = "the server's history:\n\(report(history))"
            let makers = Set(
                titles.compactMap { $0.split(separator: "-").dropFirst().first?.split(separator: "/").first })
            for maker in makers.sorted() {
                let store = try JSONFileDataStore(
                    .init(
                        name: String(maker), schema: schema,
                        directory: directory.appendingPathComponent(String(maker))))
                text += "\n\(maker)'s history:\n\(report(try store.fetchHistory(HistoryDescriptor())))"
            }
            return text
        }
    }
#endif
