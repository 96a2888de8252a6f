public import Foundation

/// One transaction of a store's history. One type serves every backend; backends name it through a type
/// alias (`JSONFileHistoryTransaction`, …). Its ``keyPaths`` are written once, here: key paths of a generic
/// struct compare equal to the ones `#Predicate` builds on its specialisation, so every backend seeks by
/// token, timestamp, identifier and author without a table of its own.
public struct GenericHistoryTransaction<Kind: HistoryTokenKind>: HistoryTransaction, Hashable, Codable {
    /// The seekable key paths.
    ///
    /// Made once per kind: a key path of a generic type is instantiated at run time each time its expression
    /// runs, and every history fetch compares its predicate with these (about a sixth of a pull's CPU when
    /// they were made on each call).
    public static var keyPaths: HistoryKeyPaths<GenericHistoryTransaction<Kind>> {
        TypeTables.table(KeyPathTable.self) {
            KeyPathTable(
                HistoryKeyPaths(
                    token: \.token, timestamp: \.timestamp, transactionIdentifier: \.transactionIdentifier,
                    author: \.author))
        }.keyPaths
    }

    /// ``keyPaths``, as made once.
    private final class KeyPathTable: Sendable {
        let keyPaths: HistoryKeyPaths<GenericHistoryTransaction<Kind>>
        init(_ keyPaths: HistoryKeyPaths<GenericHistoryTransaction<Kind>>) { self.keyPaths = keyPaths }
    }

    /// `true`: the transaction identifier is the token's sequence number.
    public static var transactionIdentifierIsSequence: Bool { true }

    /// When the save committed; never earlier than the previous transaction's.
    public var timestamp: Date
    /// The changes, one per model, in request order.
    public var changes: [GenericHistoryChange<Kind>]
    /// The token bookmarking this transaction.
    public var token: GenericHistoryToken<Kind>
    /// Equal to the token's sequence.
    public var transactionIdentifier: Int64
    /// The store's identifier.
    public var storeIdentifier: String
    /// The saving context's author.
    public var author: String?
    /// The saving program's bundle identifier.
    public var bundleIdentifier: String
    /// The saving process's identifier.
    public var processIdentifier: String

    /// Creates a transaction; its identifier and store come from `token`.
    public init(
        timestamp: Date, changes: [GenericHistoryChange<Kind>], token: GenericHistoryToken<Kind>,
        author: String?, bundleIdentifier: String, processIdentifier: String
    ) {
        self.timestamp = timestamp
        self.changes = changes
        self.token = token
        self.transactionIdentifier = token.sequence
        self.storeIdentifier = token.storeIdentifier
        self.author = author
        self.bundleIdentifier = bundleIdentifier
        self.processIdentifier = processIdentifier
    }
}
