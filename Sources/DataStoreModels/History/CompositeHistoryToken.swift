public import DataStoreCore
public import Foundation

/// A position in a model container's merged history: for each store, the sequence reached there.
///
/// Like Core Data's and CouchDB's multi-store tokens, it is a map from store identifier to that store's
/// position (epoch and sequence). Its rules:
/// - ``merging(_:)`` takes the maximum per store.
/// - `a < b` means `b` strictly dominates `a`: every store's sequence in `b` is at least that in `a`, and
///   one is larger. Tokens taken along one merged stream are totally ordered, so
///   `#Predicate { $0.token > token }` selects exactly the transactions after `token`.
/// - A store missing from the token counts as "from that store's beginning" (sequence 0), so adding a
///   store to a container keeps old tokens valid.
/// - A component at sequence 0 means the same as no component: `{trips: 0}` equals `{}`, with the same
///   hash.
/// - Components of different epochs are unordered with each other.
///
/// The order is a *partial* order (irreflexive, asymmetric, transitive): two tokens from different
/// streams, or from different epochs of a store, can be incomparable, where neither is `<` the other. Tokens
/// taken along one merged stream are always comparable; sorting or taking `max` of incomparable tokens is
/// undefined, so merge them with ``merging(_:)`` instead.
///
/// See `Docs/Tokens.md` for examples and the Codable form.
public struct CompositeHistoryToken: HistoryToken, CustomStringConvertible {
    /// One store's position: its epoch and the sequence reached.
    public struct Component: Hashable, Sendable {
        /// The store incarnation.
        public var epoch: UUID
        /// The last sequence included.
        public var sequence: Int64

        /// Creates a component.
        public init(epoch: UUID, sequence: Int64) {
            self.epoch = epoch
            self.sequence = sequence
        }
    }

    /// The position reached in each store, by store identifier.
    public var components: [String: Component]

    /// Creates a token from per-store positions.
    public init(components: [String: Component] = [:]) {
        self.components = components
    }

    /// Creates a token holding one store token's position.
    public init(_ token: some StoreHistoryToken) {
        self.init(components: [token.storeIdentifier: Component(epoch: token.epoch, sequence: token.sequence)]
        )
    }

    /// The store token of `Token`'s type for one store's component, or `nil` if the token lacks the store.
    public func storeToken<Token: StoreHistoryToken>(
        for storeIdentifier: String, as _: Token.Type = Token.self
    )
        -> Token?
    {
        components[storeIdentifier].map {
            Token(storeIdentifier: storeIdentifier, epoch: $0.epoch, sequence: $0.sequence)
        }
    }

    /// The token with each store at the larger of the two positions. Where epochs differ, `other` wins.
    public func merging(_ other: CompositeHistoryToken) -> CompositeHistoryToken {
        var merged = components
        for (store, component) in other.components {
            if let mine = merged[store], mine.epoch == component.epoch, mine.sequence >= component.sequence {
                continue
            }
            merged[store] = component
        }
        return CompositeHistoryToken(components: merged)
    }

    /// The components past sequence 0: those that say anything.
    var positions: [String: Component] { components.filter { $0.value.sequence != 0 } }

    /// Whether the two tokens name the same positions (a sequence-0 component counts as absent).
    public static func == (lhs: CompositeHistoryToken, rhs: CompositeHistoryToken) -> Bool {
        lhs.positions == rhs.positions
    }

    /// Hashes the positions, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(positions)
    }

    /// Whether `rhs` strictly dominates `lhs`: at least as far in every store and further in one.
    public static func < (lhs: CompositeHistoryToken, rhs: CompositeHistoryToken) -> Bool {
        var strictlyLess = false
        let left = lhs.positions
        let right = rhs.positions
        for store in Set(left.keys).union(right.keys) {
            let left = left[store]
            let right = right[store]
            if let left, let right, left.epoch != right.epoch { return false }
            let leftSequence = left?.sequence ?? 0
            let rightSequence = right?.sequence ?? 0
            if leftSequence > rightSequence { return false }
            if leftSequence < rightSequence { strictlyLess = true }
        }
        return strictlyLess
    }

    /// Whether `rhs` is at least as far as `lhs` in every store (dominance, not "not greater").
    public static func <= (lhs: CompositeHistoryToken, rhs: CompositeHistoryToken) -> Bool {
        lhs == rhs || lhs < rhs
    }

    /// Whether `lhs` is at least as far as `rhs` in every store.
    public static func >= (lhs: CompositeHistoryToken, rhs: CompositeHistoryToken) -> Bool {
        rhs <= lhs
    }

    /// `{trips: 3, people: 7}`, for messages.
    public var description: String {
        "{"
            + components.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.sequence)" }
            .joined(separator: ", ") + "}"
    }
}
