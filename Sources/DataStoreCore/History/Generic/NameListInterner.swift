/// Keeps one array per distinct list of attribute names, so that the changes of a long history that name the
/// same attributes (every update of a note's `body`, every insert of a note) share its storage instead of each
/// holding a copy: a store that retains millions of changes in memory saves an allocation per change.
///
/// Bounded: after `limit` distinct lists, new ones are returned as they are.
package struct NameListInterner: Sendable {
    private var lists: [[String]: [String]] = [:]
    private let limit: Int

    /// An empty interner that remembers at most `limit` distinct lists.
    package init(limit: Int = 4_096) {
        self.limit = limit
    }

    /// An array equal to `names`, the one remembered for that list when there is one.
    package mutating func intern(_ names: [String]) -> [String] {
        // Empty arrays share the runtime's one empty storage already.
        guard !names.isEmpty else { return names }
        if let known = lists[names] { return known }
        if lists.count < limit { lists[names] = names }
        return names
    }
}
