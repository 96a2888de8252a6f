/// A bookmark for a position in a history stream.
///
/// Save the token of the last transaction you processed (it is Codable), and later fetch the transactions
/// after it with `#Predicate { $0.token > token }`.
///
/// # Implementation requirements
///
/// - `a < b` means `a` names an earlier position than `b` in the same history. Tokens of different stores
///   (or different incarnations of one store) are unordered: both `a < b` and `b < a` are `false`.
/// - The Codable form is compact, stable and versioned JSON. Decoding malformed or tampered data throws
///   ``DataStoreError/malformedHistoryToken(reason:)`` and never traps.
/// - Equal tokens name the same position; `hash(into:)` agrees with `==`.
public protocol HistoryToken: Comparable, Codable, Hashable, Sendable {}
