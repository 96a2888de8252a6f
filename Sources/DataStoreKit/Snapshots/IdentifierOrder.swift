import DataStoreCore

/// Sorts rows (or anything that has an identifier) into identifier order, as `PersistentIdentifier`'s `<`
/// orders them, for the thousands of rows a fetch without a sort, a batch delete or a checkpoint orders.
///
/// Comparing two identifiers compares three strings, and sorting through `<` copies them for each of the
/// comparisons: for 20,000 rows that took tens of milliseconds. When every identifier has the same store and
/// entity and an ASCII primary key (where `String`'s order is the order of the bytes), each key's first 16
/// bytes are read once into two integers and the sort compares those, falling back to whole keys on a tie.
/// Otherwise it sorts through `<`.
enum IdentifierOrder {
    /// `elements` sorted by `identifier`, ascending.
    ///
    /// The elements are moved into place, not copied: rows hold references, and copying thousands of them
    /// retains each one and releases it again when the unsorted array goes.
    static func sorted<Element>(
        _ elements: consuming [Element], by identifier: (Element) -> PersistentIdentifier
    ) -> [Element] {
        guard elements.count > 1 else { return elements }
        guard let keys = prefixKeys(elements, identifier) else {
            return elements.sorted { identifier($0) < identifier($1) }
        }
        let order = keys.sorted { lhs, rhs in
            if lhs.high != rhs.high { return lhs.high < rhs.high }
            if lhs.low != rhs.low { return lhs.low < rhs.low }
            return identifier(elements[lhs.index]).primaryKey < identifier(elements[rhs.index]).primaryKey
        }
        var result = elements
        permute(&result, into: order.map(\.index))
        return result
    }

    /// Rearranges `elements` in place so that position `k` holds the element that was at `source[k]` (a
    /// permutation), by swaps along each cycle.
    static func permute<Element>(_ elements: inout [Element], into source: [Int]) {
        var source = source
        // Swapped through the buffer, whose `swapAt` moves elements: `Array`'s copies them.
        elements.withUnsafeMutableBufferPointer { elements in
            for start in source.indices where source[start] != start {
                var current = start
                while source[current] != start {
                    let next = source[current]
                    elements.swapAt(current, next)
                    source[current] = current
                    current = next
                }
                source[current] = current
            }
        }
    }

    /// An element's position and the first 16 bytes of its primary key, big-endian (zero past the end).
    struct PrefixKey {
        var high: UInt64
        var low: UInt64
        var index: Int
    }

    /// The prefix keys, or `nil` when they would not give `<`'s order: identifiers of several stores or
    /// entities, or a primary key that is not ASCII.
    static func prefixKeys<Element>(_ elements: [Element], _ identifier: (Element) -> PersistentIdentifier)
        -> [PrefixKey]?
    {
        let first = identifier(elements[0])
        var keys: [PrefixKey] = []
        keys.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let id = identifier(element)
            guard id.entityName == first.entityName, id.storeIdentifier == first.storeIdentifier else {
                return nil
            }
            var text = id.primaryKey
            let key = text.withUTF8 { bytes -> PrefixKey? in
                var high: UInt64 = 0
                var low: UInt64 = 0
                var isASCII = true
                for position in 0..<bytes.count {
                    let byte = bytes[position]
                    isASCII = isASCII && byte < 0x80
                    if position < 8 {
                        high |= UInt64(byte) << (56 - 8 * UInt64(position))
                    } else if position < 16 {
                        low |= UInt64(byte) << (56 - 8 * UInt64(position - 8))
                    }
                }
                return isASCII ? PrefixKey(high: high, low: low, index: index) : nil
            }
            guard let key else { return nil }
            keys.append(key)
        }
        return keys
    }
}
