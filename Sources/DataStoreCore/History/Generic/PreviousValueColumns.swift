/// A change's previous values as two arrays: the names, sorted (sharing `updatedAttributes`' storage when every
/// updated attribute kept its previous value), and the values in the same order.
final class PreviousValueColumns: Hashable, Sendable {
    let names: [String]
    let values: [SnapshotValue]

    init(names: [String], values: [SnapshotValue]) {
        self.names = names
        self.values = values
    }

    static func == (lhs: PreviousValueColumns, rhs: PreviousValueColumns) -> Bool {
        lhs.names == rhs.names && lhs.values == rhs.values
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(names)
        hasher.combine(values)
    }
}
