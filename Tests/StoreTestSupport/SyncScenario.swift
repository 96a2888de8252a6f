public import DataStoreCore
import DataStoreSync
import Foundation

/// The note the two-way sync tests edit: three attributes, so that two devices can change different ones.
public struct SyncNote: PersistentModel, Hashable {
    /// The attributes.
    public static let schemaAttributes: [ModelAttribute<SyncNote>] = [
        .attribute("title", \.title), .attribute("body", \.body), .attribute("rank", \.rank),
    ]
    /// The schema holding `SyncNote` and the sync's bookkeeping.
    public static let schema = Schema([SyncNote.self, SyncCursor.self])
    /// The identifier.
    public var persistentModelID = PersistentIdentifier()
    /// A title.
    public var title = ""
    /// A body.
    public var body = ""
    /// A rank.
    public var rank = 0
    /// An empty note.
    public init() {}
}

/// Two devices and a server store, random edits on all three and pushes and pulls in random order, with
/// engines restarted now and then: what the sync must survive. Backends plug in through the factories.
public struct SyncScenario<Local: HistoryProvidingStore, Remote: HistoryProvidingStore>
where
    Local.HistoryType.Change: ValueRecordingHistoryChange,
    Remote.HistoryType.Change: ValueRecordingHistoryChange
{
    /// What the run observed, for the test's assertions.
    public struct Outcome {
        /// Each device's rows, then the server's, as `key: title|body|rank`, sorted.
        public var rows: [[String]]
        /// The transactions the app made on each device.
        public var appTransactions: [Int]
        /// The server transactions authored by each device's pushes.
        public var serverTransactionsByDevice: [Int]
        /// Server transactions authored by a pull (echoes): must be 0.
        public var echoes: Int
        /// How many pulls found their token expired and resynchronised.
        public var resynchronisations: Int
        /// How many edits were made on the devices and on the server.
        public var edits: Int

        /// What breaks the sync's promises, in words; empty when all three stores agree, every app
        /// transaction reached the server exactly once, and nothing pulled was pushed back.
        public var problems: [String] {
            var problems: [String] = []
            if rows[0] != rows[2] || rows[1] != rows[2] {
                problems.append(
                    "the stores disagree: \(rows[0].count), \(rows[1].count), \(rows[2].count) notes")
            }
            for device in 0..<2 where serverTransactionsByDevice[device] != appTransactions[device] {
                problems.append(
                    "device \(device) made \(appTransactions[device]) transactions; the server holds "
                        + "\(serverTransactionsByDevice[device]) of its pushes")
            }
            if echoes > 0 { problems.append("\(echoes) pulled transactions were pushed back") }
            if appTransactions.allSatisfy({ $0 == 0 }) || rows[2].isEmpty {
                problems.append("the run synced nothing")
            }
            return problems
        }
    }

    /// Runs `rounds` rounds with the random `seed`. The server's history must not be trimmed, so that the
    /// pushes can be counted; trim it with `trimServerEvery` rounds instead (then the count is not checked).
    ///
    /// - Parameters:
    ///   - makeDevice: Opens device `index`'s store (0 or 1); its schema holds ``SyncNote`` and `SyncCursor`.
    ///   - remote: The server store, with the same schema.
    ///   - trimServerEvery: Every this many rounds, the server's history is deleted through its newest
    ///     transaction, so that devices behind find their tokens expired.
    public static func run(
        rounds: Int, seed: UInt64, remote: Remote, trimServerEvery: Int? = nil,
        makeDevice: (Int) throws -> Local
    ) throws -> Outcome {
        var random = SplitMix64(seed: seed)
        let devices = try (0..<2).map(makeDevice)
        func engine(_ index: Int) throws -> SyncEngine<Local, Remote> {
            try SyncEngine(
                local: devices[index], server: remote, device: "d\(index)", models: [SyncNote.self])
        }
        var syncs = try (0..<2).map(engine)
        var resynchronisations = 0
        var edits = 0
        var trimmed = false
        for round in 0..<rounds {
            // Edits: each device and the server, sometimes.
            for editor in 0..<3 where Int.random(in: 0..<3, using: &random) > 0 {
                if editor < 2 {
                    try edit(devices[editor], label: "d\(editor)-\(round)", author: "user", random: &random)
                } else {
                    try edit(remote, label: "s-\(round)", author: "admin", random: &random)
                }
                edits += 1
            }
            // Syncs: a random selection of push and pull per device, in random order.
            var steps = [(0, true), (0, false), (1, true), (1, false)].filter { _ in
                Bool.random(using: &random)
            }
            steps.shuffle(using: &random)
            for (index, isPush) in steps {
                if isPush {
                    try syncs[index].push()
                } else {
                    let before = syncs[index].status.resynchronisationCount
                    try syncs[index].pull()
                    resynchronisations += syncs[index].status.resynchronisationCount - before
                }
            }
            // Now and then a device restarts: a new engine reads its cursors from the stores.
            if Int.random(in: 0..<10, using: &random) == 0 {
                let index = Int.random(in: 0..<2, using: &random)
                syncs[index] = try engine(index)
            }
            if let every = trimServerEvery, round % every == every - 1,
                let newest = try remote.fetchHistory(HistoryDescriptor()).last?.token
            {
                try remote.deleteHistory(HistoryDescriptor(predicate: HistoryPredicates.through(newest)))
                trimmed = true
            }
        }
        // Settle: both push, then both sync (the second device's push reaches the first).
        for index in 0..<2 { try syncs[index].push() }
        for index in 0..<2 { try syncs[index].sync() }

        let remoteHistory = try remote.fetchHistory(HistoryDescriptor())
        let appTransactions = try devices.map { device in
            try device.fetchHistory(HistoryDescriptor()).filter { $0.author == "user" }.count
        }
        return Outcome(
            rows: try devices.map(rows) + [rows(remote)],
            appTransactions: appTransactions,
            serverTransactionsByDevice: (0..<2).map { index in
                trimmed
                    ? appTransactions[index] : remoteHistory.filter { $0.author == "device:d\(index)" }.count
            },
            echoes: remoteHistory.filter { $0.author == SyncEngine<Local, Remote>.pullAuthor }.count,
            resynchronisations: resynchronisations, edits: edits)
    }

    /// One random edit: insert a note, update one or two attributes of a random note, or delete one.
    static func edit<Store: DataStore>(
        _ store: Store, label: String, author: String, random: inout SplitMix64
    ) throws {
        let notes = try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<SyncNote>())).snapshots
        var request = DataStoreSaveChangesRequest(editingState: EditingState(author: author))
        let choice = notes.isEmpty ? 0 : Int.random(in: 0..<5, using: &random)
        switch choice {
        case 0, 1:
            var note = SyncNote()
            note.persistentModelID = PersistentIdentifier(
                storeIdentifier: store.identifier, entityName: SyncNote.entityName, primaryKey: label)
            note.title = "t-\(label)"
            note.body = "b-\(label)"
            note.rank = Int.random(in: 0..<100, using: &random)
            request.inserted.append(note.snapshot)
        case 2, 3:
            var note = notes.randomElement(using: &random)!
            if Bool.random(using: &random) { note.values["title"] = .string("t-\(label)") }
            if Bool.random(using: &random) { note.values["body"] = .string("b-\(label)") }
            note.values["rank"] = .integer(Int64.random(in: 0..<100, using: &random))
            request.updated.append(note)
        default:
            request.deleted.append(notes.randomElement(using: &random)!)
        }
        _ = try store.save(request)
    }

    static func rows<Store: DataStore>(_ store: Store) throws -> [String] {
        try SyncScenarioRows.rows(store)
    }
}

/// The notes a store holds, as comparable lines (`key: title | body | rank`), for tests that compare stores.
public enum SyncScenarioRows {
    /// The store's notes, sorted.
    public static func rows<Store: DataStore>(_ store: Store) throws -> [String] {
        try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<SyncNote>())).snapshots.map { row in
            "\(row.persistentIdentifier.primaryKey): \(row[attribute: "title"]) | \(row[attribute: "body"]) | "
                + "\(row[attribute: "rank"])"
        }.sorted()
    }
}
