// The device of the sync fault test (`PostgresSyncFaultTests`): a JSON file store syncing continuously with the
// PostgreSQL server while it makes random transactions, each acknowledged in a log once its save returned.

import DataStoreCore
import DataStoreSync
import Foundation
import JSONFileStorage
import StoreTestSupport
import Synchronization

#if PostgreSQL
    import PostgresStorage

    /// sync-device DIR DEVICE RUN NAMESPACE: opens DIR/DEVICE (a durable JSON file store) and the server's
    /// schema NAMESPACE, starts the engine, and edits until told `quiesce`; then answers `sync` with one sync
    /// each (`SYNCED pushed read applied`), until told `quit` or its input ends.
    ///
    /// Each transaction writes its stamp, `DEVICE/RUN/N`, into every model it inserts or updates, and once its
    /// save has returned appends `STAMP CHANGES` to DIR/DEVICE.acks: what the device acknowledged.
    func runSyncDevice(_ arguments: [String]) throws {
        guard arguments.count == 5, let run = Int(arguments[3]) else {
            fail("usage: sync-device DIR DEVICE RUN NAMESPACE")
        }
        let directory = URL(fileURLWithPath: arguments[1])
        let device = arguments[2]
        guard let url = ProcessInfo.processInfo.environment["DATASTORE_POSTGRES_URL"] else {
            fail("sync-device needs DATASTORE_POSTGRES_URL")
        }
        let local = try JSONFileDataStore(
            .init(name: device, schema: SyncNote.schema, directory: directory.appendingPathComponent(device)))
        // The server may be restarting: try for a minute.
        var server: PostgresDataStore?
        for _ in 0..<600 where server == nil {
            // The sessions carry the schema's name, so that the nemesis can end them.
            server = try? PostgresDataStore(
                .init(
                    name: "server", schema: SyncNote.schema,
                    connectionString: url + "?application_name=\(arguments[4])", databaseSchema: arguments[4])
            )
            if server == nil { Thread.sleep(forTimeInterval: 0.1) }
        }
        guard let server else { fail("the server did not answer for a minute") }
        let engine = try SyncEngine(local: local, server: server, device: device, models: [SyncNote.self])
        engine.start()
        let acks = try FileHandle(forWritingTo: ackLog(directory, device))
        acks.seekToEndOfFile()
        let editing = Atomic(true)
        let stopped = DispatchSemaphore(value: 0)
        let editor = Thread {
            var random = SplitMix64(seed: device.utf8.reduce(UInt64(run)) { $0 &* 31 &+ UInt64($1) })
            var number = 0
            while editing.load(ordering: .relaxed) {
                number += 1
                let stamp = "\(device)/\(run)/\(number)"
                do {
                    let changes = try editOnce(local, stamp: stamp, random: &random)
                    acks.write(Data("\(stamp) \(changes)\n".utf8))
                } catch let error as DataStoreError where error.code == .modelNotFound {
                    // A pull deleted the note between the fetch and the save, as in any app: nothing was
                    // saved, nothing is acknowledged.
                } catch {
                    fail("a local save failed: \(error)")
                }
                Thread.sleep(forTimeInterval: Double.random(in: 0.005...0.03, using: &random))
            }
            stopped.signal()
        }
        editor.start()
        report("READY")
        while let line = readLine() {
            switch line {
            case "quiesce":
                editing.store(false, ordering: .relaxed)
                stopped.wait()
                engine.stop()
                report("QUIET")
            case "sync":
                do {
                    let outcome = try engine.sync()
                    report("SYNCED \(outcome.pushed) \(outcome.read) \(outcome.pulled)")
                } catch {
                    report("ERROR \(error)")
                }
            case "quit":
                // Not the end of input: a server restarted meanwhile may hold a copy of the pipe's other end.
                report("BYE")
                exit(0)
            default:
                report("ERROR unknown command \(line)")
            }
        }
    }

    /// The acknowledgement log of `device`, created empty when missing.
    func ackLog(_ directory: URL, _ device: String) -> URL {
        let url = directory.appendingPathComponent("\(device).acks")
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        return url
    }

    /// One random transaction: a new note, new titles for one or two notes any device made, or a delete (rarely,
    /// and never of the last few notes). Returns how many models it changed.
    func editOnce(_ store: JSONFileDataStore, stamp: String, random: inout SplitMix64) throws -> Int {
        let notes = try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<SyncNote>())).snapshots
        var request = DataStoreSaveChangesRequest(editingState: EditingState(author: "app"))
        let choice = notes.count < 5 ? 0 : Int.random(in: 0..<20, using: &random)
        switch choice {
        case 0..<8:
            var note = SyncNote()
            note.persistentModelID = PersistentIdentifier(
                storeIdentifier: store.identifier, entityName: SyncNote.entityName,
                primaryKey: stamp.replacingOccurrences(of: "/", with: "-"))
            note.title = stamp
            note.body = stamp
            note.rank = Int.random(in: 0..<1000, using: &random)
            request.inserted.append(note.snapshot)
        case 8..<18:
            let count = min(notes.count, Int.random(in: 1...2, using: &random))
            for note in notes.shuffled(using: &random).prefix(count) {
                var values: [String: SnapshotValue] = ["title": .string(stamp)]
                if Bool.random(using: &random) { values["body"] = .string(stamp) }
                request.updated.append(
                    DataStoreSnapshot(persistentIdentifier: note.persistentIdentifier, values: values))
            }
        default:
            // A delete, and a new title for another note: the stamp is in every transaction's values.
            let pair = notes.shuffled(using: &random).prefix(2)
            request.deleted.append(pair.first!)
            request.updated.append(
                DataStoreSnapshot(
                    persistentIdentifier: pair.last!.persistentIdentifier, values: ["title": .string(stamp)]))
        }
        _ = try store.save(request)
        return request.inserted.count + request.updated.count + request.deleted.count
    }
#else
    func runSyncDevice(_ arguments: [String]) throws {
        fail("sync-device needs the PostgreSQL trait")
    }
#endif
