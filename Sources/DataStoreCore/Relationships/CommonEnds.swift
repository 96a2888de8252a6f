/// The longest runs two lists start and end with alike: only what lies between them can differ.
///
/// Keeping both sides of a relationship in step uses it to find what an edit of a list gained and lost without
/// hashing the list: in memory on the models' references (`ModelReferences`), and in a save on the stored
/// identifiers (`InverseRelationships`). An append, a removal or an insert then costs one comparison per
/// element and touches only the models it changes.
package enum CommonEnds {
    /// How many elements `old` and `new` start with alike, and how many of the rest they end with alike, given
    /// their counts and whether `old[i]` and `new[j]` are alike (`same(i, j)`).
    package static func of(oldCount: Int, newCount: Int, same: (Int, Int) -> Bool) -> (
        prefix: Int, suffix: Int
    ) {
        let shorter = min(oldCount, newCount)
        var prefix = 0
        while prefix < shorter, same(prefix, prefix) { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, same(oldCount - 1 - suffix, newCount - 1 - suffix) { suffix += 1 }
        return (prefix, suffix)
    }

    /// The parts of `old` and `new` between the runs they start and end with alike.
    package static func differingParts<Element: Equatable>(_ old: [Element], _ new: [Element])
        -> (old: ArraySlice<Element>, new: ArraySlice<Element>)
    {
        let (prefix, suffix) = of(oldCount: old.count, newCount: new.count) { old[$0] == new[$1] }
        return (old[prefix..<(old.count - suffix)], new[prefix..<(new.count - suffix)])
    }
}
