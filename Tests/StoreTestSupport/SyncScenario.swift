public import DataStoreCore
public import Foundation
import TwoWaySync

/// The note the two-way sync tests edit: three attributes, so that two devices can change different ones.
public struct SyncNote: PersistentModel, Hashable {
    /// The attributes.
    public static let schemaAttributes: [ModelAttribute<SyncNote>] = [
        .attribute("title", \.title), .attribute("body", \.body), .attribute("rank", \.rank),
    ]
    /// The schema holding only `SyncNote`.
    public static let schema = Schema([SyncNote.self])
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

/// Two devices and a server store, random edits on all three and syncs in random order: what the two-way sync
/// must survive. Backends plug in through the factories.
public struct SyncScenario<Local: DataStore & HistoryProviding, Remote: DataStore & HistoryProviding>
where
    Local.HistoryType.Change: ValueRecordingHistoryChange, Local.HistoryType.Token: StoreHistoryToken,
    Remote.HistoryType.Token: StoreHistoryToken
{
    /// What the run observed, for the test's assertions.
    public struct Outcome {
        /// Each device's rows, then the server's, as `key: title|body|rank`, sorted.
        public var rows: [[String]]
        /// The local transactions each device pushed, by sequence.
        public var pushed: [[Int64]]
        /// The remote transactions each device copied, by sequence.
        public var pulled: [[Int64]]
        /// How many pushed transactions were authored by the pull (echoes): must be 0.
        public var echoes: Int
        /// How many remote transactions each device authored.
        public var remoteTransactionsByDevice: [Int]
        /// How many pulls found their token expired and resynchronised.
        public var resynchronisations: Int
        /// How many edits were made on the devices and on the server.
        public var edits: Int

        /// What breaks the sync's promises, in words; empty when all three stores agree, no transaction was
        /// pushed or copied twice, nothing pulled was pushed back, and the server holds exactly the pushes.
        public var problems: [String] {
            var problems: [String] = []
            if rows[0] != rows[2] || rows[1] != rows[2] {
                problems.append(
                    "the stores disagree: \(rows[0].count), \(rows[1].count), \(rows[2].count) notes")
            }
            for device in 0..<2 {
                if Set(pushed[device]).count != pushed[device].count {
                    problems.append("device \(device) pushed a transaction twice")
                }
                if Set(pulled[device]).count != pulled[device].count {
                    problems.append("device \(device) copied a server transaction twice")
                }
                if remoteTransactionsByDevice[device] > pushed[device].count {
                    problems.append(
                        "the server holds \(remoteTransactionsByDevice[device]) transactions by device \(device), "
                            + "which pushed \(pushed[device].count)")
                }
            }
            if echoes > 0 { problems.append("\(echoes) pulled transactions were pushed back") }
            if pushed.allSatisfy(\.isEmpty) || pulled.allSatisfy(\.isEmpty) || rows[2].isEmpty {
                problems.append("the run synced nothing: pushed \(pushed), pulled \(pulled)")
            }
            return problems
        }
    }

    /// Runs `rounds` rounds with the random `seed`.
    ///
    /// - Parameters:
    ///   - makeDevice: Opens device `index`'s store (0 or 1).
    ///   - remote: The server store.
    ///   - directory: Where the devices keep their sync state.
    public static func run(
        rounds: Int, seed: UInt64, directory: URL, remote: Remote, makeDevice: (Int) throws -> Local
    ) throws -> Outcome {
        var random = SplitMix64(seed: seed)
        let devices = try (0..<2).map(makeDevice)
        var syncs = try (0..<2).map { index in
            try TwoWaySync(
                local: devices[index], remote: remote, device: "d\(index)", models: [SyncNote.self],
                stateFile: directory.appendingPathComponent("sync-d\(index).json"))
        }
        var pushed: [[Int64]] = [[], []]
        var pulled: [[Int64]] = [[], []]
        var resynchronisations = 0
        var edits = 0
        func record(_ index: Int) {
            pushed[index] += syncs[index].pushedSequences
            pulled[index] += syncs[index].pulledSequences
        }
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
                } else if try syncs[index].pull().resynchronised {
                    resynchronisations += 1
                }
            }
            // Now and then a device restarts: a new engine reads its tokens from the state file.
            if Int.random(in: 0..<10, using: &random) == 0 {
                let index = Int.random(in: 0..<2, using: &random)
                record(index)
                syncs[index] = try TwoWaySync(
                    local: devices[index], remote: remote, device: "d\(index)", models: [SyncNote.self],
                    stateFile: directory.appendingPathComponent("sync-d\(index).json"))
            }
        }
        // Settle: both push, then both pull (the second device's push reaches the first).
        for index in 0..<2 { try syncs[index].push() }
        for index in 0..<2 { try syncs[index].sync() }
        for index in 0..<2 { record(index) }

        var echoes = 0
        for index in 0..<2 {
            let history = try devices[index].fetchHistory(HistoryDescriptor())
            let authors = Dictionary(uniqueKeysWithValues: history.map { ($0.token.sequence, $0.author) })
            echoes += pushed[index].filter { authors[$0] == TwoWaySync<Local, Remote>.pullAuthor }.count
        }
        let remoteHistory = try remote.fetchHistory(HistoryDescriptor())
        return Outcome(
            rows: try devices.map(rows) + [rows(remote)], pushed: pushed, pulled: pulled, echoes: echoes,
            remoteTransactionsByDevice: (0..<2).map { index in
                remoteHistory.filter { $0.author == "device:d\(index)" }.count
            },
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
        try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<SyncNote>())).snapshots.map { row in
            "\(row.persistentIdentifier.primaryKey): \(row[attribute: "title"]) | \(row[attribute: "body"]) | "
                + "\(row[attribute: "rank"])"
        }.sorted()
    }
}
