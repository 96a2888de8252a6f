/// Room for a dictionary's elements, made without looking types up at run time.
///
/// The standard library does not inline `Dictionary.init(minimumCapacity:)` or `Dictionary.reserveCapacity(_:)`:
/// each call goes through the generic entry point, which looks the key and value types' metadata up in the
/// runtime's tables. In a save of ten changes, those lookups cost more than the growth the reservation spares.
/// These are inlinable, so each use is specialised for its types; a dictionary's storage is made through
/// `init(uniqueKeysWithValues:)`, which sizes it by the sequence's `underestimatedCount` and is inlinable.
extension Dictionary {
    /// An empty dictionary with room for `count` elements.
    @inlinable package init(room count: Int) {
        self.init(uniqueKeysWithValues: NoElements<(Key, Value)>(underestimatedCount: count))
    }

    /// Makes room for `count` elements in all: a new, sized dictionary while this one is empty; the standard
    /// library's reservation (and its lookup) only when a dictionary that holds elements must grow.
    @inlinable package mutating func reserveRoom(_ count: Int) {
        guard count > capacity else { return }
        if isEmpty { self = Self(room: count) } else { reserveCapacity(count) }
    }
}

/// A sequence of no elements that claims `underestimatedCount` of them: what sizes a collection made from it.
@usableFromInline struct NoElements<Element>: Sequence, IteratorProtocol {
    @usableFromInline let underestimatedCount: Int

    @inlinable init(underestimatedCount: Int) { self.underestimatedCount = underestimatedCount }

    @inlinable mutating func next() -> Element? { nil }
}
