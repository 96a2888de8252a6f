extension RandomAccessCollection {
    /// The first index whose element satisfies `belongsInSecondPartition`, by binary search.
    ///
    /// The collection must already be partitioned: every element for which the predicate is `false` comes
    /// before every element for which it is `true`. O(log n).
    package func partitioningIndex(where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Index
    {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try belongsInSecondPartition(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
