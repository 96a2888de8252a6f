import Testing

@testable import DataStoreKit

/// `OrderedRows.remove(_:from:)` moves the kept elements down a run at a time through raw memory: what it
/// leaves must be the kept elements in order, every removed one released, and no kept one released or leaked.
struct OrderedRowsRemovalTests {
    /// An element whose instances are counted, so that a double release or a leak shows.
    final class Counted {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test(arguments: [
        [0], [9], [0, 9], [3, 4, 5], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 3, 5, 7], [2, 8], [0, 5, 6, 9],
    ])
    func keptElementsStayInOrderAndRemovedOnesAreReleased(positions: [Int]) {
        var elements = (0..<10).map { Counted($0) }
        let removed = positions.map { position in { [weak element = elements[position]] in element } }
        OrderedRows.remove(positions, from: &elements)
        #expect(elements.map(\.number) == (0..<10).filter { !positions.contains($0) })
        // Only `elements` holds the instances now: the removed ones are gone, the kept ones go with it.
        #expect(removed.allSatisfy { $0() == nil })
        let kept = elements.map { element in { [weak element] in element } }
        elements = []
        #expect(kept.allSatisfy { $0() == nil })
    }

    @Test func aLargeRemovalMatchesFiltering() {
        var generator = SystemRandomNumberGenerator()
        var elements = (0..<5_000).map { "row \($0)" }
        let positions = (0..<5_000).filter { _ in Int.random(in: 0..<10, using: &generator) == 3 }
        let expected = elements.enumerated().filter { !positions.contains($0.offset) }.map(\.element)
        OrderedRows.remove(positions, from: &elements)
        #expect(elements == expected)
    }

    @Test func noPositionsChangeNothing() {
        var elements = ["a", "b"]
        OrderedRows.remove([], from: &elements)
        #expect(elements == ["a", "b"])
    }
}
