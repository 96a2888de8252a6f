#if PostgreSQL
    import DataStoreCore
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
    /// Runs only when `DATASTORE_SYNC_FAULT_SECONDS` says how long the nemesis runs (`.ci/run` gives it 60 s;
    /// `Scripts/sync-fault-test SECONDS` runs it alone).
    @Suite struct PostgresSyncFaultTests {
        static let seconds = ProcessInfo.processInfo.environment["DATASTORE_SYNC_FAULT_SECONDS"].flatMap(
            Double.init)

        @Test(.enabled(if: seconds != nil, "set DATASTORE_SYNC_FAULT_SECONDS to run the fault test"))
        func fiveDevicesConvergeUnderFaults() throws {
            let report = try SyncFaultRun(seconds: Self.seconds ?? 0, devices: 5).run()
            print(report.summary)
            if let path = ProcessInfo.processInfo.environment["DATASTORE_SYNC_FAULT_REPORT"] {
                try Data((report.summary + "\n").utf8).write(to: URL(fileURLWithPath: path))
            }
            #expect(report.violations.isEmpty, "\(report.violations)")
            #expect(report.acknowledged > 0 && report.faults.values.reduce(0, +) > 0, "\(report.summary)")
        }
    }

    /// One run of the fault test: the devices, the nemesis, the quiescing and the checker.
    struct SyncFaultRun {
        let seconds: Double
        let devices: Int

        /// What a run found.
        struct Report {
            var acknowledged = 0
            var committed = 0
            var serverTransactions = 0
            var faults: [String: Int] = [:]
            var rounds = 0
            var notes = 0
            var violations: [String] = []

            var summary: String {
                let faultList = faults.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(
                    separator: ", ")
                return
                    "sync fault test: \(acknowledged) transactions acknowledged (\(committed) committed) on the devices, "
                    + "\(serverTransactions) server transactions, \(notes) notes at the end; faults: \(faultList); "
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
            // The server's tables, made once before the devices start.
            _ = try PostgresDataStore(
                .init(
                    name: "server", schema: SyncNote.schema, connectionString: url, databaseSchema: namespace)
            )
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "sync-fault-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }

            var report = Report()
            var runs = [Int](repeating: 0, count: devices)
            var processes: [ChildProcess] = []
            func launch(_ index: Int) throws -> ChildProcess {
                runs[index] += 1
                let process = try ChildProcess(
                    ["sync-device", directory.path, "d\(index)", "\(runs[index])", namespace],
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
            // Quiesce: edits stop, then whole rounds of syncs until one moves nothing.
            for (index, process) in processes.enumerated() {
                let answer = process.request("quiesce", timeout: .seconds(120))
                guard answer == "QUIET" else {
                    throw DataStoreError.invalidConfiguration(
                        reason: "device d\(index) did not quiesce: \(answer ?? "no answer")")
                }
            }
            var moved = true
            while moved && report.rounds < 40 {
                moved = false
                report.rounds += 1
                for process in processes {
                    let answer = process.request("sync", timeout: .seconds(120)) ?? "ERROR no answer"
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
                _ = process.request("quit", timeout: .seconds(30))
                process.waitForExit(timeout: .seconds(30))
            }
            let checking = ContinuousClock.now
            try check(directory: directory, url: url, namespace: namespace, into: &report)
            say("checked in \(ContinuousClock.now - checking)")
            return report
        }

        /// Convergence, nothing lost, each device transaction in one server transaction, per-device order, and
        /// no echo.
        func check(directory: URL, url: String, namespace: String, into report: inout Report) throws {
            let server = try PostgresDataStore(
                .init(
                    name: "server", schema: SyncNote.schema, connectionString: url, databaseSchema: namespace)
            )
            let serverRows = try SyncScenarioRows.rows(server)
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
                    .init(
                        name: name, schema: SyncNote.schema, directory: directory.appendingPathComponent(name)
                    ))
                let rows = try SyncScenarioRows.rows(store)
                if rows != serverRows {
                    report.violations.append(
                        "\(name) holds \(rows.count) notes, the server \(serverRows.count), and they differ")
                }
                let acknowledged = try String(
                    contentsOf: directory.appendingPathComponent("\(name).acks"), encoding: .utf8
                )
                .split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
                report.acknowledged += acknowledged.count
                // Every transaction the device committed (acknowledged or not), in its order.
                let committed = try store.fetchHistory(HistoryDescriptor()).filter { $0.author == "app" }
                report.committed += committed.count
                let committedStamps = Set(committed.compactMap { Self.stamp(of: $0) })
                for stamp in acknowledged where !committedStamps.contains(stamp) {
                    report.violations.append("\(stamp) was acknowledged but is not in \(name)'s history")
                }
                var last = -1
                for transaction in committed {
                    guard let stamp = Self.stamp(of: transaction) else { continue }
                    let positions = landed[stamp] ?? []
                    if positions.count > 1 {
                        report.violations.append("\(stamp) is split over server transactions \(positions)")
                    }
                    guard let position = positions.first else {
                        // Only a change the policy drops may vanish: updates and deletes of notes deleted on
                        // the server.
                        let touched = transaction.changes.map(\.changedPersistentIdentifier.primaryKey)
                        if !touched.allSatisfy(deletedOnServer.contains) {
                            report.violations.append("\(stamp) by \(name) never reached the server")
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
        }

        /// The stamp a device transaction wrote (every value it wrote carries it); `nil` for a delete alone.
        static func stamp(of transaction: some HistoryTransaction) -> String? {
            for change in transaction.changes {
                guard let values = (change as? any ValueRecordingHistoryChange)?.values else { continue }
                for value in values.values { if case .string(let text) = value { return text } }
            }
            return nil
        }
    }
#endif
