public import DataStoreCore
import DataStoreKit
import Foundation
import Synchronization

/// A small example backend: one JSON file per model, history as JSON lines.
///
/// ```
/// directory/
///   store.json                 {"epoch": …, "oldestValid": …, "schema": …}
///   models/Trip/<key>.json     one snapshot per file
///   history.jsonl              one transaction per line
/// ```
///
/// It shows how little a backend must write when it builds on `DataStoreCore`: `SnapshotTable` validates saves
/// and computes changes, tombstones and upserts; `SnapshotQuery` answers fetches; `HistoryQuery` validates
/// tokens, seeks and filters history. What is left is where bytes go.
///
/// It is a teaching example, not a production store: it is safe for one process at a time, and a crash in the
/// middle of a save can leave model files and history disagreeing. `JSONFileDataStore` shows how to do both
/// properly (a single journal record per save, and `flock`).
public final class FilePerModelDataStore: HistoryProvidingStore, Sendable {
    /// The store's configuration type.
    public typealias Configuration = FilePerModelStoreConfiguration
    /// The store's token type.
    public typealias Token = FilePerModelHistoryToken
    /// The store's transaction type.
    public typealias HistoryType = FilePerModelHistoryTransaction

    struct Metadata: Codable {
        var epoch: UUID
        var oldestValid: Int64
        /// The schema the model files are in (absent in stores written before schemas were recorded).
        var schema: Schema?
    }

    struct State {
        var table: SnapshotTable
        var metadata: Metadata
        var history: [FilePerModelHistoryTransaction]
        /// History transactions examined by queries, for `HistoryReadCounting`.
        var examined = 0
    }

    /// The configuration the store was opened with.
    public let configuration: FilePerModelStoreConfiguration
    /// The store's identifier: the configuration's name.
    public let identifier: String
    /// The schema the store enforces: the configuration's, or the one it migrated to.
    public var schema: Schema { state.withLock { $0.table.schema } ?? Schema(entities: []) }
    let state: Mutex<State>
    let root: URL

    /// Opens the store in its directory, creating it if needed.
    public init(_ configuration: FilePerModelStoreConfiguration) throws {
        self.configuration = configuration
        self.identifier = configuration.name
        self.root = configuration.directory
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("models"), withIntermediateDirectories: true)
        let metadataURL = root.appendingPathComponent("store.json")
        let metadata: Metadata
        if let data = try? Data(contentsOf: metadataURL) {
            metadata = try JSONDecoder().decode(Metadata.self, from: data)
        } else {
            metadata = Metadata(epoch: UUID(), oldestValid: 0, schema: configuration.schema)
            try AtomicFileWriter.replace(metadataURL.path, with: JSONEncoder().encode(metadata))
        }
        // Load every model file into the shared table, and every history line.
        var table = SnapshotTable(
            storeIdentifier: configuration.name, schema: configuration.schema ?? metadata.schema)
        let models = root.appendingPathComponent("models")
        for entity in try FileManager.default.contentsOfDirectory(atPath: models.path) {
            for file in try FileManager.default.contentsOfDirectory(
                atPath: models.appendingPathComponent(entity).path)
            {
                let data = try Data(
                    contentsOf: models.appendingPathComponent(entity).appendingPathComponent(file))
                let snapshot = try JSONDecoder().decode(DataStoreSnapshot.self, from: data)
                table.apply(
                    PlannedChange(
                        kind: .insert, identifier: snapshot.persistentIdentifier, values: snapshot.values))
            }
        }
        let lines =
            (try? String(contentsOf: root.appendingPathComponent("history.jsonl"), encoding: .utf8)) ?? ""
        let history = try lines.split(separator: "\n").map {
            try JSONDecoder().decode(FilePerModelHistoryTransaction.self, from: Data($0.utf8))
        }
        state = Mutex(State(table: table, metadata: metadata, history: history))
        if let target = configuration.schema { try reconcileSchema(with: target) }
    }

    func modelFile(_ id: PersistentIdentifier) -> URL {
        // Keys are UUIDs or similar; percent-encode anything else so a key never escapes its directory.
        let key = id.primaryKey.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id.primaryKey
        return root.appendingPathComponent("models").appendingPathComponent(id.entityName)
            .appendingPathComponent(key + ".json")
    }

    /// Fetches through the shared `SnapshotQuery`.
    public func fetch<Model: PersistentModel>(_ request: DataStoreFetchRequest<Model>) throws
        -> DataStoreFetchResult
    {
        let (rows, table) = state.withLock { (Array($0.table.rows(of: Model.entityName)), $0.table) }
        return DataStoreFetchResult(
            snapshots: try SnapshotQuery.run(
                request.descriptor, over: rows, storeIdentifier: identifier, relatedRows: table))
    }

    /// Plans the save with `SnapshotTable`, writes one file per changed model and one history line, then applies.
    public func save(_ request: DataStoreSaveChangesRequest) throws -> DataStoreSaveChangesResult<
        FilePerModelHistoryToken
    > {
        try state.withLock { state in
            let plan = try state.table.plan(request)
            guard !plan.changes.isEmpty else {
                // Nothing to write, but what the store holds may differ from what was sent (a list edit another
                // saver made already): report it, so that the saving context takes it.
                return DataStoreSaveChangesResult(
                    storeIdentifier: identifier, remappedIdentifiers: plan.remappedIdentifiers, token: nil,
                    deleteRuleChanges: plan.deleteRuleChanges)
            }
            let last = state.history.last
            let sequence = max(last?.token.sequence ?? 0, state.metadata.oldestValid) + 1
            var nextChange = (last?.changes.last?.changeIdentifier ?? 0) + 1
            let token = FilePerModelHistoryToken(
                storeIdentifier: identifier, epoch: state.metadata.epoch, sequence: sequence)
            var changes: [FilePerModelHistoryChange] = []
            for change in plan.changes {
                changes.append(
                    FilePerModelHistoryChange(
                        change, changeIdentifier: nextChange, transactionIdentifier: sequence))
                nextChange += 1
            }
            let transaction = FilePerModelHistoryTransaction(
                timestamp: max(Date(), last?.timestamp ?? .distantPast), changes: changes, token: token,
                author: request.editingState.author,
                bundleIdentifier: request.editingState.bundleIdentifier,
                processIdentifier: request.editingState.processIdentifier)

            var table = state.table
            table.apply(plan)
            for change in plan.changes {
                let file = modelFile(change.identifier)
                if let row = table[change.identifier] {
                    try FileManager.default.createDirectory(
                        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try AtomicFileWriter.replace(file.path, with: JSONEncoder().encode(row))
                } else {
                    try? FileManager.default.removeItem(at: file)
                }
            }
            try appendHistoryLine(transaction)
            state.table = table
            state.history.append(transaction)
            return DataStoreSaveChangesResult(
                storeIdentifier: identifier, remappedIdentifiers: plan.remappedIdentifiers, token: token,
                deleteRuleChanges: plan.deleteRuleChanges)
        }
    }

    func appendHistoryLine(_ transaction: FilePerModelHistoryTransaction) throws {
        let url = root.appendingPathComponent("history.jsonl")
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: try JSONEncoder().encode(transaction) + Data("\n".utf8))
        try handle.synchronize()
    }

    /// Removes every file and starts a new epoch.
    public func erase() throws {
        try state.withLock { state in
            try FileManager.default.removeItem(at: root)
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("models"), withIntermediateDirectories: true)
            state = State(
                table: SnapshotTable(storeIdentifier: identifier, schema: configuration.schema),
                metadata: Metadata(epoch: UUID(), oldestValid: 0, schema: state.table.schema), history: [])
            try AtomicFileWriter.replace(
                root.appendingPathComponent("store.json").path, with: JSONEncoder().encode(state.metadata))
        }
    }

    private func query(_ state: State) -> HistoryQuery<FilePerModelHistoryTransaction> {
        HistoryQuery(
            storeIdentifier: identifier, epoch: state.metadata.epoch,
            oldestValidSequence: state.metadata.oldestValid,
            latestSequence: max(state.history.last?.token.sequence ?? 0, state.metadata.oldestValid))
    }

    /// Fetches history through the shared `HistoryQuery`: validation, seek, predicate, sort, limit.
    public func fetchHistory(_ descriptor: HistoryDescriptor<FilePerModelHistoryTransaction>) throws
        -> [FilePerModelHistoryTransaction]
    {
        let (historyQuery, history) = state.withLock { (query($0), $0.history) }
        var statistics = HistoryQueryStatistics()
        defer { state.withLock { $0.examined += statistics.examinedTransactions } }
        return try historyQuery.run(descriptor, over: history, statistics: &statistics)
    }

    /// Deletes the matching transactions, rewrites the history file, and expires older tokens.
    public func deleteHistory(_ descriptor: HistoryDescriptor<FilePerModelHistoryTransaction>) throws {
        try state.withLock { state in
            var statistics = HistoryQueryStatistics()
            var all = descriptor
            all.fetchLimit = nil
            let doomed = try query(state).run(all, over: state.history, statistics: &statistics)
            state.examined += statistics.examinedTransactions
            guard let newest = doomed.last?.token.sequence else { return }
            let sequences = Set(doomed.map(\.token.sequence))
            state.history.removeAll { sequences.contains($0.token.sequence) }
            state.metadata.oldestValid = max(state.metadata.oldestValid, newest)
            let lines = try state.history.map {
                String(decoding: try JSONEncoder().encode($0), as: UTF8.self) + "\n"
            }.joined()
            try AtomicFileWriter.replace(
                root.appendingPathComponent("history.jsonl").path, with: Data(lines.utf8))
            try AtomicFileWriter.replace(
                root.appendingPathComponent("store.json").path, with: JSONEncoder().encode(state.metadata))
        }
    }
}

extension FilePerModelDataStore: HistoryReadCounting {
    /// The history transactions examined since the store was opened: what the suite's seek checks count.
    public var historyTransactionsExamined: Int { state.withLock { $0.examined } }
}
