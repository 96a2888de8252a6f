import DataStoreCore
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

    /// Identifiers `keys` of one entity and store, as a kept order holds them.
    static func identifiers(_ keys: [String], entity: String = "Note") -> [PersistentIdentifier] {
        keys.map { PersistentIdentifier(storeIdentifier: "notes", entityName: entity, primaryKey: $0) }
    }

    @Test func theDeletedAreFoundWhereTheyStandInTheKeptOrder() {
        let kept = Self.identifiers((0..<1_000).map { "k\($0)" })
        let chosen = [0, 1, 17, 500, 998, 999]
        #expect(OrderedRows.positions(of: chosen.map { kept[$0] }, in: kept) == chosen)
        #expect(OrderedRows.positions(of: [], in: kept) == [])
    }

    /// Fewer positions than identifiers is how the caller learns that the order does not hold them all in its
    /// order (it then drops the order): out of order, absent, or the same key of another entity or store.
    @Test func identifiersTheOrderDoesNotHoldInItsOrderAreNotAllFound() {
        let kept = Self.identifiers(["a", "b", "c", "d"])
        #expect(OrderedRows.positions(of: [kept[2], kept[1]], in: kept).count < 2)
        #expect(OrderedRows.positions(of: Self.identifiers(["b", "x"]), in: kept).count < 2)
        #expect(OrderedRows.positions(of: Self.identifiers(["c"], entity: "Tag"), in: kept).isEmpty)
        let otherStore = PersistentIdentifier(storeIdentifier: "tags", entityName: "Note", primaryKey: "c")
        #expect(OrderedRows.positions(of: [otherStore], in: kept).isEmpty)
    }

    @Test func noPositionsChangeNothing() {
        var elements = ["a", "b"]
        OrderedRows.remove([], from: &elements)
        #expect(elements == ["a", "b"])
    }

    /// A copy of a table shares its kept orders until a row changes. A batch of deletes must leave the table an
    /// order of its own even when the shared one holds none of the entity yet: the copy, which still has the
    /// rows, would otherwise compute one later, and the table would read the deleted rows from it.
    @Test func anOrderACopyComputesAfterADeleteIsNotTheTables() {
        var table = SnapshotTable(storeIdentifier: "notes", schema: nil)
        let ids = Self.identifiers((0..<10).map { "k\($0)" })
        table.apply(
            ids.map {
                PlannedChange(kind: .insert, identifier: $0, values: ["title": .string($0.primaryKey)])
            })
        let copy = table
        // Consecutive deletes of one entity: applied together, as a batch delete's are.
        table.apply(ids[2..<5].map { PlannedChange(kind: .delete, identifier: $0) })
        #expect(copy.rowsInIdentifierOrder.map(\.persistentIdentifier) == ids)
        #expect(table.rowsInIdentifierOrder.map(\.persistentIdentifier) == Array(ids[..<2] + ids[5...]))
    }
}
