// The device of the sync fault test (`PostgresSyncFaultTests`): a JSON file store syncing continuously with the
// PostgreSQL server while it makes random transactions, each acknowledged in a log once its save returned.

import DataStoreCore
import DataStoreHistory
import DataStoreSync
import Foundation
import JSONFileStorage
import StoreTestSupport
import Synchronization

#if PostgreSQL
    import PostgresStorage

    /// sync-device DIR DEVICE RUN NAMESPACE [lists|playlists|tags]: opens DIR/DEVICE (a durable JSON file store) and the
    /// server's schema NAMESPACE, starts the engine, and edits until told `quiesce`; then answers `sync` with
    /// one sync each (`SYNCED pushed read applied`), until told `quit` (answered `BYE` and the conflicts this
    /// run's engine decided) or its input ends.
    ///
    /// Without a workload, each transaction writes its stamp, `DEVICE/RUN/N`, into every note it inserts or
    /// updates. With `lists` (trips, whose lists keep no previous values) or `playlists` (whose lists do), each
    /// edits the lists the server holds through a model context, as an app would, and writes its stamp into the
    /// owner it edits (``FaultListModel/stamp``); before saving it appends
    /// `STAMP WHAT TITLES…` to DIR/DEVICE.intents (see ``editListsOnce``). Once its save has returned, each appends
    /// `STAMP CHANGES` to DIR/DEVICE.acks: what the device acknowledged. Each failed sync appends `CODE MESSAGE`
    /// to DIR/DEVICE.errors. With `tags`, each edits notes and their
    /// tags (many-to-many) the same way (``editTagsOnce(_:_:stamp:random:intents:)``); with `marks`, notes and marks,
    /// whose lists keep their previous values.
    func runSyncDevice(_ arguments: [String]) throws {
        guard
            arguments.count == 5
                || (arguments.count == 6
                    && (FaultListWorkload.model(arguments[5]) != nil
                        || TaggingWorkload.note(arguments[5]) != nil)),
            let run = Int(arguments[3])
        else {
            fail("usage: sync-device DIR DEVICE RUN NAMESPACE [lists|playlists|tags|marks]")
        }
        let directory = URL(fileURLWithPath: arguments[1])
        let device = arguments[2]
        let workload = arguments.count == 6 ? arguments[5] : nil
        let listModel = workload.flatMap(FaultListWorkload.model)
        let taggedNotes = workload.flatMap(TaggingWorkload.note)
        let schema = taggedNotes?.syncSchema ?? listModel?.faultSchema ?? SyncNote.schema
        let models =
            taggedNotes?.pairModels ?? listModel.map { listWorkloadModels(of: $0) } ?? [SyncNote.self]
        guard let url = ProcessInfo.processInfo.environment["DATASTORE_POSTGRES_URL"] else {
            fail("sync-device needs DATASTORE_POSTGRES_URL")
        }
        let local = try JSONFileDataStore(
            .init(name: device, schema: schema, directory: directory.appendingPathComponent(device)))
        // The server may be restarting: try for a minute.
        var server: PostgresDataStore?
        for _ in 0..<600 where server == nil {
            // The sessions carry the schema's name, so that the nemesis can end them.
            server = try? PostgresDataStore(
                .init(
                    name: "server", schema: schema,
                    connectionString: url + "?application_name=\(arguments[4])", databaseSchema: arguments[4])
            )
            if server == nil { Thread.sleep(forTimeInterval: 0.1) }
        }
        guard let server else { fail("the server did not answer for a minute") }
        let engine = try SyncEngine(local: local, server: server, device: device, models: models)
        // Each failed sync, one line each (the error's code and message) in DIR/DEVICE.errors, for the report.
        let failures = try FileHandle(forWritingTo: ackLog(directory, device, suffix: "errors"))
        failures.seekToEndOfFile()
        let updates = engine.statusUpdates()
        Task.detached {
            var last: Date?
            for await status in updates {
                guard let failure = status.lastError, failure.date != last else { continue }
                last = failure.date
                let message = failure.message.replacingOccurrences(of: "\n", with: " ")
                failures.write(Data("\(failure.code ?? "-") \(message)\n".utf8))
            }
        }
        engine.start()
        let acks = try FileHandle(forWritingTo: ackLog(directory, device))
        acks.seekToEndOfFile()
        let intents = try FileHandle(forWritingTo: ackLog(directory, device, suffix: "intents"))
        intents.seekToEndOfFile()
        let container = try ModelContainer(for: models, configurations: [ModelConfiguration(store: local)])
        let editing = Atomic(true)
        let stopped = DispatchSemaphore(value: 0)
        let editor = Thread {
            var random = SplitMix64(seed: device.utf8.reduce(UInt64(run)) { $0 &* 31 &+ UInt64($1) })
            var number = 0
            while editing.load(ordering: .relaxed) {
                number += 1
                let stamp = "\(device)/\(run)/\(number)"
                do {
                    let changes =
                        try workload.flatMap(TaggingWorkload.note).map {
                            try editTagsOnce($0, container, stamp: stamp, random: &random, intents: intents)
                        }
                        ?? workload.flatMap(FaultListWorkload.model).map {
                            try editListsOnce($0, container, stamp: stamp, random: &random, intents: intents)
                        } ?? editOnce(local, stamp: stamp, random: &random)
                    if changes > 0 { acks.write(Data("\(stamp) \(changes)\n".utf8)) }
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
                report("BYE \(engine.status.conflictCount)")
                exit(0)
            default:
                report("ERROR unknown command \(line)")
            }
        }
    }

    /// The acknowledgement log of `device` (or its log of intents), created empty when missing.
    func ackLog(_ directory: URL, _ device: String, suffix: String = "acks") -> URL {
        let url = directory.appendingPathComponent("\(device).\(suffix)")
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

    /// The model types of a list workload: the owner and its item.
    func listWorkloadModels<Model: FaultListModel>(of _: Model.Type) -> [any PersistentModel.Type] {
        [Model.self, Model.Item.self]
    }

    /// One random transaction on the lists of `Model` (trips or playlists), through a new model context as an app
    /// makes it: one step, or two or three in one save (``editListStep``), each a new item appended or put first,
    /// a list reversed, an item moved to another owner or taken off its list, an item deleted, a list emptied, or
    /// an owner's attributes with previous values changed; every five seconds a new owner instead, every other
    /// one made with an item it takes from another owner between two new ones; now and then the delete of an
    /// owner made in this run. Each owner it edits or makes gets `stamp` (``FaultListModel/stamp``), so that
    /// every transaction carries its stamp.
    ///
    /// Before saving, appends `STAMP WHAT TITLES…` to `intents`, a line for each thing the edit does (the
    /// checker reads each line alone): `insert` with the new items' titles, `unlink`
    /// with the titles the edit takes off their lists, `delete` with the deleted item's, `move` with the moved
    /// item's, `reorder` alone, `trip` with a new owner's name, `into OWNER` with the titles of the items the
    /// edit puts on that owner's list, `deltrip` with a deleted owner's name. A device killed between the line and the save
    /// leaves an intent that no transaction carried out, so the checker reads intents as what may have
    /// happened, and acknowledgements as what did. Returns how many models the context changed; 0 when the
    /// device holds no owner yet.
    func editListsOnce<Model: FaultListModel>(
        _ model: Model.Type, _ container: ModelContainer, stamp: String, random: inout SplitMix64,
        intents: FileHandle
    ) throws -> Int {
        let context = ModelContext(container)
        context.author = "app"
        let owners = try context.fetch(FetchDescriptor<Model>()).sorted { $0.name < $1.name }
        guard owners.count > 1 else { return 0 }
        var items = try context.fetch(FetchDescriptor<Model.Item>()).sorted {
            Model.title(of: $0) < Model.title(of: $1)
        }
        // Every five seconds a new owner, which every device makes on its first edit of those seconds unless it
        // holds it already: devices that make it before they have pulled another's have the server merge theirs
        // into the first (its name is unique).
        let name = "trip-\(Int(Date().timeIntervalSince1970 / 5))"
        if !owners.contains(where: { $0.name == name }) {
            let new = Model.make(name: name, day: 0)
            new.stamp = stamp
            context.insert(new)
            intents.write(Data("\(stamp) trip \(name)\n".utf8))
            // Every other time the new owner also takes an item held already, between two new ones: its list
            // then names a model made before it between models made with it, and a device that pulls it must
            // keep that order (an intent line each; the checker reads them one by one).
            if Bool.random(using: &random), let moved = items.randomElement(using: &random) {
                let (first, last) = ("item-\(stamp)", "item-\(stamp)-b")
                let lines = [
                    "insert \(first) \(last)", "move \(Model.title(of: moved))",
                    "into \(name) \(first) \(Model.title(of: moved)) \(last)",
                ]
                intents.write(Data(lines.map { "\(stamp) \($0)\n" }.joined().utf8))
                new.append(Model.makeItem(title: first))
                new.append(moved)
                new.append(Model.makeItem(title: last))
            }
            let changes = [context.insertedModelsArray, context.changedModelsArray].map(\.count).reduce(0, +)
            try context.save()
            return changes
        }
        // Now and then an owner made in this run, half a minute old at least, is deleted, its items with it
        // (trips) or put on no list (playlists). Other devices go on editing it until they pull the delete: what
        // they put into it meanwhile goes with it, as the `into` lines let the checker allow. The stamp goes on a
        // seeded owner, which no device deletes, since a delete alone carries no values.
        let window = Int(Date().timeIntervalSince1970 / 5)
        if owners.count > 6, Int.random(in: 0..<40, using: &random) == 0,
            let old = owners.first(where: { $0.name.hasPrefix("trip-") && $0.name < "trip-\(window - 6)" }),
            let seed = owners.first(where: { !$0.name.hasPrefix("trip-") })
        {
            intents.write(Data("\(stamp) deltrip \(old.name)\n".utf8))
            context.delete(old)
            seed.stamp = stamp
            let changes = [context.changedModelsArray, context.deletedModelsArray].map(\.count).reduce(0, +)
            try context.save()
            return changes
        }
        // One step in most transactions, two or three in one of four: a pull then applies a device's steps
        // together (an item moved and its old list reversed, a new item and a delete), as an app's save makes them.
        let steps = Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 2...3, using: &random) : 1
        for step in 0..<steps {
            let owner = owners[Int.random(in: 0..<owners.count, using: &random)]
            let lines = editListStep(
                owner, owners: owners, items: &items, in: context,
                title: step == 0 ? "item-\(stamp)" : "item-\(stamp)-\(step)", stamp: stamp, random: &random)
            owner.stamp = stamp
            // An owner made in this run may be deleted on the server before this transaction arrives, and every
            // change it makes with it: a seeded owner carries the stamp too, so that the checker finds where the
            // transaction landed.
            if owner.name.hasPrefix("trip-") { owners.first { !$0.name.hasPrefix("trip-") }?.stamp = stamp }
            intents.write(Data(lines.map { "\(stamp) \($0)\n" }.joined().utf8))
        }
        let changes = [context.insertedModelsArray, context.changedModelsArray, context.deletedModelsArray]
            .map(\.count).reduce(0, +)
        try context.save()
        return changes
    }

    /// One step of ``editListsOnce``: a random edit of `owner`'s list or of an item of `items` (a deleted item
    /// leaves `items`, so that a later step of the transaction does not touch it). Returns the step's intent
    /// lines: what it does, and `into OWNER TITLE` for an item it puts on an owner's list.
    func editListStep<Model: FaultListModel>(
        _ owner: Model, owners: [Model], items: inout [Model.Item], in context: ModelContext, title: String,
        stamp: String, random: inout SplitMix64
    ) -> [String] {
        let position = items.isEmpty ? nil : Int.random(in: 0..<items.count, using: &random)
        let item = position.map { items[$0] }
        // Inserts until the lists hold about sixty items, deletes beyond, so that the lists stay app-sized.
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<5 where items.count < 60:
            owner.append(Model.makeItem(title: title))
            return ["insert \(title)", "into \(owner.name) \(title)"]
        case 5..<7 where items.count < 60:
            owner.insertFirst(Model.makeItem(title: title))
            return ["insert \(title)", "into \(owner.name) \(title)"]
        case 0..<7 where position != nil, 17..<19 where position != nil:
            context.delete(item!)
            items.remove(at: position!)
            return ["delete \(Model.title(of: item!))"]
        case 9..<11:
            // Attributes that keep their previous values: edits of one owner on two devices are conflicts the
            // resolver decides (the default keeps the later push).
            owner.editDetails(stamp: stamp, number: Int.random(in: 1...30, using: &random))
            return ["details"]
        case 11..<15 where item != nil:
            let current = Model.trip(of: item!)
            let destination = owners.first { $0 !== current && $0 !== owner } ?? owner
            Model.setTrip(destination, of: item!)
            return ["move \(Model.title(of: item!))", "into \(destination.name) \(Model.title(of: item!))"]
        case 15..<17 where item != nil:
            Model.setTrip(nil, of: item!)
            return ["unlink \(Model.title(of: item!))"]
        case 19:
            defer { owner.clearList() }
            return [(["unlink"] + owner.listedItems.map(Model.title(of:))).joined(separator: " ")]
        default:
            owner.reverseList()
            return ["reorder"]
        }
    }
#else
    func runSyncDevice(_ arguments: [String]) throws {
        fail("sync-device needs the PostgreSQL trait")
    }
#endif
