import DataStoreConformance
import DataStoreCore
import DataStoreKit
import Foundation
import InMemoryStorage

/// An in-memory store whose history hands out tokens of another type: for the sabotages that live in a
/// token type's own `Codable` conformance, which the generic token gets right.
final class RetokenedStore<Token: StoreHistoryToken>: HistoryProvidingStore, Sendable {
    typealias HistoryType = RetokenedTransaction<Token>

    struct Configuration: DataStoreConfiguration {
        typealias Store = RetokenedStore<Token>
        var name: String
        var schema: Schema?
    }

    let configuration: Configuration
    let base: InMemoryDataStore
    var identifier: String { base.identifier }
    var schema: Schema { base.schema }

    init(_ configuration: Configuration) throws {
        self.configuration = configuration
        base = try InMemoryDataStore(
            InMemoryStoreConfiguration(name: configuration.name, schema: configuration.schema))
    }

    func retoken(_ token: InMemoryHistoryToken) -> Token {
        Token(storeIdentifier: token.storeIdentifier, epoch: token.epoch, sequence: token.sequence)
    }

    func fetch<Model: PersistentModel>(_ request: DataStoreFetchRequest<Model>) throws -> DataStoreFetchResult
    {
        try base.fetch(request)
    }

    func save(_ request: DataStoreSaveChangesRequest) throws -> DataStoreSaveChangesResult<Token> {
        let result = try base.save(request)
        return DataStoreSaveChangesResult(
            storeIdentifier: identifier, remappedIdentifiers: result.remappedIdentifiers,
            token: result.token.map(retoken))
    }

    func erase() throws { try base.erase() }

    /// The whole history, retyped, through the shared query (validation, seek, predicate, sort, limit).
    func fetchHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws -> [HistoryType] {
        let log = try base.fetchHistory(HistoryDescriptor()).map { transaction in
            RetokenedTransaction(
                timestamp: transaction.timestamp, changes: transaction.changes,
                token: retoken(transaction.token),
                transactionIdentifier: transaction.transactionIdentifier,
                storeIdentifier: transaction.storeIdentifier,
                author: transaction.author, bundleIdentifier: transaction.bundleIdentifier,
                processIdentifier: transaction.processIdentifier)
        }
        let current = base.currentToken
        var statistics = HistoryQueryStatistics()
        return try HistoryQuery(
            storeIdentifier: identifier, epoch: current.epoch, oldestValidSequence: 0,
            latestSequence: current.sequence
        )
        .run(descriptor, over: log, statistics: &statistics)
    }

    func deleteHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws {
        var all = descriptor
        all.fetchLimit = nil
        let doomed = Set(try fetchHistory(all).map(\.transactionIdentifier))
        guard !doomed.isEmpty else { return }
        try base.deleteHistory(HistoryDescriptor(predicate: HistoryPredicates.identifiers(doomed)))
    }
}

/// A transaction of a `RetokenedStore`.
struct RetokenedTransaction<Token: StoreHistoryToken>: HistoryTransaction, Hashable {
    static var keyPaths: HistoryKeyPaths<RetokenedTransaction<Token>> {
        HistoryKeyPaths(
            token: \.token, timestamp: \.timestamp, transactionIdentifier: \.transactionIdentifier,
            author: \.author)
    }
    var timestamp: Date
    var changes: [InMemoryHistoryChange]
    var token: Token
    var transactionIdentifier: Int64
    var storeIdentifier: String
    var author: String?
    var bundleIdentifier: String
    var processIdentifier: String
}

/// A token whose JSON loses the epoch: it decodes, but not to the token that was encoded.
struct LossyToken: StoreHistoryToken {
    var storeIdentifier: String
    var epoch: UUID
    var sequence: Int64
    init(storeIdentifier: String, epoch: UUID, sequence: Int64) {
        self.storeIdentifier = storeIdentifier
        self.epoch = epoch
        self.sequence = sequence
    }
    func encode(to encoder: any Encoder) throws {
        let forgetful = LossyToken(
            storeIdentifier: storeIdentifier, epoch: UUID(uuid: nullUUID), sequence: sequence)
        try HistoryTokenCoding.encode(forgetful, kind: "lossy", to: encoder)
    }
    init(from decoder: any Decoder) throws {
        self = try HistoryTokenCoding.decode(Self.self, kind: "lossy", from: decoder)
    }
}

/// A token whose decoding never fails: malformed JSON becomes a token at sequence 0.
struct LenientToken: StoreHistoryToken {
    var storeIdentifier: String
    var epoch: UUID
    var sequence: Int64
    init(storeIdentifier: String, epoch: UUID, sequence: Int64) {
        self.storeIdentifier = storeIdentifier
        self.epoch = epoch
        self.sequence = sequence
    }
    func encode(to encoder: any Encoder) throws {
        try HistoryTokenCoding.encode(self, kind: "lenient", to: encoder)
    }
    init(from decoder: any Decoder) throws {
        do {
            self = try HistoryTokenCoding.decode(Self.self, kind: "lenient", from: decoder)
        } catch {
            self.init(storeIdentifier: "", epoch: UUID(), sequence: 0)
        }
    }
}

private let nullUUID: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
