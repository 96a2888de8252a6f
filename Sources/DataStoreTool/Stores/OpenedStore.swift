import DataStoreCore
import Foundation
import JSONFileStorage
import StoreFileSupport
import TimeSeriesStorage

/// A store on disk, opened read-only (or writable for `compact`), whichever backend it is.
enum OpenedStore {
    case jsonFile(JSONFileDataStore)
    case timeSeries(TimeSeriesDataStore)

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

    var kind: Kind {
        switch self {
        case .jsonFile: .jsonFile
        case .timeSeries: .timeSeries
        }
    }

    var identifier: String {
        switch self {
        case .jsonFile(let store): store.identifier
        case .timeSeries(let store): store.identifier
        }
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
