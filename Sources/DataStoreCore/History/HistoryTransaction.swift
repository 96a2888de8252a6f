public import Foundation

/// A group of changes that a store committed together, such as one `save` of a model context.
///
/// # Implementation requirements
///
/// - ``changes`` are in the order they were made, and a transaction is visible whole or not at all.
/// - ``token`` bookmarks this transaction; tokens grow strictly along the store's history.
/// - ``transactionIdentifier`` is unique in the store (our backends use the token's sequence number). Set
///   ``transactionIdentifierIsSequence`` to `true` when it always equals the token's sequence: then bounds
///   on it seek, and a newest-first sort on it reads from the newest end.
/// - ``timestamp`` never decreases along one store's history, so stores can seek by time.
/// - ``author`` is the author of the context that saved, ``bundleIdentifier`` the saving program's bundle
///   identifier (on Linux, the executable's name unless configured) and ``processIdentifier`` its process.
/// - ``keyPaths`` names the type's own stored properties, written in the conforming type:
///   `static let keyPaths = HistoryKeyPaths<Self>(token: \.token, timestamp: \.timestamp, …)`. Stores
///   seek with it; a wrong key path makes queries scan.
public protocol HistoryTransaction: Sendable {
    /// The backend's change type.
    associatedtype Change: HistoryChange
    /// The backend's token type.
    associatedtype Token: HistoryToken

    /// When the transaction was committed.
    var timestamp: Date { get }
    /// The changes, in the order they were made.
    var changes: [Change] { get }
    /// The token that bookmarks this transaction.
    var token: Token { get }
    /// The transaction's identifier, unique in its store.
    var transactionIdentifier: Int64 { get }
    /// The identifier of the store that committed the transaction.
    var storeIdentifier: String { get }
    /// The author of the context that saved, if it set one.
    var author: String? { get }
    /// The bundle identifier of the saving program.
    var bundleIdentifier: String { get }
    /// The process identifier of the saving program.
    var processIdentifier: String { get }

    /// The key paths of `token`, `timestamp`, `transactionIdentifier` and `author`, spelled on this type.
    static var keyPaths: HistoryKeyPaths<Self> { get }
    /// Whether ``transactionIdentifier`` always equals the token's sequence number (`false` unless the type
    /// says so).
    static var transactionIdentifierIsSequence: Bool { get }
}

extension HistoryTransaction {
    /// `false`: nothing is assumed about a transaction identifier beyond its uniqueness.
    public static var transactionIdentifierIsSequence: Bool { false }
}
