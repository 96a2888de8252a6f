extension Array: SnapshotValueConvertible where Element: SnapshotValueConvertible {
    /// The element kind in brackets.
    public static var snapshotValueKind: String { "[" + Element.snapshotValueKind + "]" }
    /// ``SnapshotValue/array(_:)`` of the elements' forms.
    public var snapshotValue: SnapshotValue { .array(map(\.snapshotValue)) }
    /// Accepts ``SnapshotValue/array(_:)`` whose every element converts.
    public init?(snapshotValue: SnapshotValue) {
        guard case .array(let values) = snapshotValue else { return nil }
        var elements: [Element] = []
        elements.reserveCapacity(values.count)
        for value in values {
            guard let element = Element(snapshotValue: value) else { return nil }
            elements.append(element)
        }
        self = elements
    }
}
