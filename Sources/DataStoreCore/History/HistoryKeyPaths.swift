public import Foundation

/// The key paths of a transaction type's seekable properties, as the type itself spells them.
///
/// ``GenericHistoryTransaction`` provides them for every backend that uses it; only a hand-written
/// transaction type declares its own.
///
/// `#Predicate` builds key paths on the concrete type (`\InMemoryHistoryTransaction.token`), and a key path
/// written in generic code (`\Transaction.token`) goes through the protocol requirement and never compares
/// equal to it. So each transaction type hands its own key paths to `HistoryPredicateBounds`.
public struct HistoryKeyPaths<Transaction: HistoryTransaction>: Sendable {
    /// The key path of `token`.
    public var token: any KeyPath<Transaction, Transaction.Token> & Sendable
    /// The key path of `timestamp`.
    public var timestamp: any KeyPath<Transaction, Date> & Sendable
    /// The key path of `transactionIdentifier`.
    public var transactionIdentifier: any KeyPath<Transaction, Int64> & Sendable
    /// The key path of `author`.
    public var author: any KeyPath<Transaction, String?> & Sendable

    /// Creates the set; write it in the conforming type, as `HistoryKeyPaths(token: \.token, …)`.
    public init(
        token: any KeyPath<Transaction, Transaction.Token> & Sendable,
        timestamp: any KeyPath<Transaction, Date> & Sendable,
        transactionIdentifier: any KeyPath<Transaction, Int64> & Sendable,
        author: any KeyPath<Transaction, String?> & Sendable
    ) {
        self.token = token
        self.timestamp = timestamp
        self.transactionIdentifier = transactionIdentifier
        self.author = author
    }
}
