import DataStoreCore
import DataStoreKit
import DataStoreSync
import Foundation
import JSONFileStorage
import TimeSeriesStorage

#if PostgreSQL
    import PostgresStorage
#endif

/// A store on disk, opened read-only (or writable for `compact`), whichever backend it is; or, with the
/// PostgreSQL trait, a store in a PostgreSQL database.
enum OpenedStore {
    case jsonFile(JSONFileDataStore)
    case timeSeries(TimeSeriesDataStore)
    #if PostgreSQL
        case postgres(PostgresDataStore)
    #endif

    /// The backend in `directory`, detected from its files.
    enum Kind: String {
        case jsonFile = "jsonfile"
        case timeSeries = "timeseries"

        init(directory: URL) throws(UsageError) {
            let manager = FileManager.default
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw UsageError("\(directory.path) is not a directory")
            }
            if manager.fileExists(atPath: directory.appendingPathComponent("journal.jsonl").path) {
                self = .jsonFile
            } else if manager.fileExists(atPath: directory.appendingPathComponent("index.json").path) {
                self = .timeSeries
            } else {
                throw UsageError(
                    "\(directory.path) holds no store (no journal.jsonl of a JSON file store, no index.json of a time-series store)"
                )
            }
        }
    }

    /// Opens the store in `directory`, read-only unless `writable`.
    static func open(_ directory: URL, writable: Bool = false, busyTimeout: Duration = .seconds(10)) throws
        -> OpenedStore
    {
        switch try Kind(directory: directory) {
        case .jsonFile:
            var configuration = JSONFileStoreConfiguration(
                name: try JSONFileDataStore.describe(directory: directory).name, directory: directory,
                isReadOnly: !writable)
            configuration.busyTimeout = busyTimeout
            return .jsonFile(try JSONFileDataStore(configuration))
        case .timeSeries:
            var configuration = TimeSeriesStoreConfiguration(
                name: try TimeSeriesDataStore.describe(directory: directory).name, directory: directory,
                isReadOnly: !writable)
            configuration.busyTimeout = busyTimeout
            return .timeSeries(try TimeSeriesDataStore(configuration))
        }
    }

    /// `jsonfile`, `timeseries` or `postgres`, for messages.
    var backendName: String {
        switch self {
        case .jsonFile: Kind.jsonFile.rawValue
        case .timeSeries: Kind.timeSeries.rawValue
        #if PostgreSQL
            case .postgres: "postgres"
        #endif
        }
    }

    var identifier: String {
        switch self {
        case .jsonFile(let store): store.identifier
        case .timeSeries(let store): store.identifier
        #if PostgreSQL
            case .postgres(let store): store.identifier
        #endif
        }
    }

    /// The schema a database store records (file stores' schemas are read by `SchemaCommand`).
    func recordedSchema() throws -> Schema? {
        #if PostgreSQL
            if case .postgres(let store) = self { return try store.recordedSchema() }
        #endif
        return nil
    }

    /// Whether a PATH argument is a PostgreSQL connection string rather than a directory.
    /// The sync cursors the store holds (DataStoreSync's bookkeeping), by name, each with its token's text.
    func syncCursors() throws -> [(name: String, token: String)] {
        let request = DataStoreFetchRequest(descriptor: FetchDescriptor<SyncCursor>())
        let rows: [DataStoreSnapshot]
        switch self {
        case .jsonFile(let store): rows = try store.fetch(request).snapshots
        case .timeSeries(let store): rows = try store.fetch(request).snapshots
        #if PostgreSQL
            case .postgres(let store): rows = try store.fetch(request).snapshots
        #endif
        }
        return rows.map {
            guard case .string(let token) = $0[attribute: "token"] else {
                return ($0.persistentIdentifier.primaryKey, "")
            }
            return ($0.persistentIdentifier.primaryKey, token)
        }.sorted { $0.name < $1.name }
    }

    static func isConnectionString(_ path: String) -> Bool {
        path.hasPrefix("postgresql://") || path.hasPrefix("postgres://") || path.contains("dbname=")
            || path.contains("host=")
    }

    /// Opens the store `--store NAME` in `--database-schema NAME` (default `datastore`) on the server of
    /// `connectionString`; without `--store`, the only store there is.
    static func open(connectionString: String, _ arguments: ParsedArguments) throws -> OpenedStore {
        #if PostgreSQL
            let databaseSchema = arguments.options["database-schema"] ?? "datastore"
            let name: String
            // Opening a store registers it: look before opening, so that a mistyped name creates nothing.
            let names = try PostgresDataStore.storeNames(
                connectionString: connectionString, databaseSchema: databaseSchema)
            if let given = arguments.options["store"] {
                guard names.contains(given) else {
                    throw UsageError(
                        "the database schema '\(databaseSchema)' holds no store named '\(given)' (it holds: "
                            + (names.isEmpty ? "none" : names.joined(separator: ", ")) + ")")
                }
                name = given
            } else {
                guard names.count == 1 else {
                    throw UsageError(
                        names.isEmpty
                            ? "the database schema '\(databaseSchema)' holds no store"
                            : "the database schema '\(databaseSchema)' holds several stores (\(names.joined(separator: ", "))): "
                                + "name one with --store")
                }
                name = names[0]
            }
            return .postgres(
                try PostgresDataStore(
                    .init(name: name, connectionString: connectionString, databaseSchema: databaseSchema)))
        #else
            throw UsageError(
                "this datastore was built without PostgreSQL support: build it with "
                    + "`swift build --traits PostgreSQL` (needs libpq-dev)")
        #endif
    }

    /// The transactions after `token` (text as the user gave it), by `author`, up to `limit`.
    func transactions(after token: String?, author: String?, limit: Int?) throws -> [TransactionRow] {
        switch self {
        case .jsonFile(let store):
            try Self.transactions(
                store, identifier: store.identifier, after: token, author: author, limit: limit)
        case .timeSeries(let store):
            try Self.transactions(
                store, identifier: store.identifier, after: token, author: author, limit: limit)
        #if PostgreSQL
            case .postgres(let store):
                try Self.transactions(
                    store, identifier: store.identifier, after: token, author: author, limit: limit)
        #endif
        }
    }

    static func transactions<Store: HistoryProviding>(
        _ store: Store, identifier: String, after text: String?, author: String?, limit: Int?
    ) throws -> [TransactionRow] where Store.HistoryType.Token: StoreHistoryToken {
        var descriptor = HistoryDescriptor<Store.HistoryType>(fetchLimit: limit)
        let token = try text.map {
            try TokenParsing.storeToken(Store.HistoryType.Token.self, from: $0, store: identifier)
        }
        switch (token, author) {
        case (let token?, let author?): descriptor.predicate = HistoryPredicates.after(token, author: author)
        case (let token?, nil): descriptor.predicate = HistoryPredicates.after(token)
        case (nil, let author?): descriptor.predicate = HistoryPredicates.author(author)
        case (nil, nil): break
        }
        return try store.fetchHistory(descriptor).map(TransactionRow.init)
    }

    /// New transactions as any process commits them, after `token` or after the newest one.
    func follow(after token: String?) throws -> AsyncThrowingStream<TransactionRow, any Error> {
        switch self {
        case .jsonFile(let store):
            let start = try token.map {
                try TokenParsing.storeToken(JSONFileHistoryToken.self, from: $0, store: store.identifier)
            }
            return Self.rows(store.historyUpdates(after: try start ?? store.currentToken()))
        case .timeSeries(let store):
            let start = try token.map {
                try TokenParsing.storeToken(TimeSeriesHistoryToken.self, from: $0, store: store.identifier)
            }
            return Self.rows(store.historyUpdates(after: try start ?? store.currentToken()))
        #if PostgreSQL
            case .postgres(let store):
                let start = try token.map {
                    try TokenParsing.storeToken(PostgresHistoryToken.self, from: $0, store: store.identifier)
                }
                return Self.rows(store.historyUpdates(after: try start ?? store.currentToken()))
        #endif
        }
    }

    static func rows<Transaction: HistoryTransaction>(_ stream: AsyncThrowingStream<Transaction, any Error>)
        -> AsyncThrowingStream<TransactionRow, any Error> where Transaction.Token: StoreHistoryToken
    {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await transaction in stream { continuation.yield(TransactionRow(transaction)) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
