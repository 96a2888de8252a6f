import DataStoreCore
import Testing

@testable import DataStoreModels

/// A fetch makes its models in the order of their rows' values in memory (`MemoryOrder`): every row once, by
/// ascending address of its dictionary of values, whatever order the rows come in.
@Suite struct MemoryOrderTests {
    @Test(arguments: [0, 255, 256, 3_000])
    func theRowsComeInTheOrderOfTheirValuesInMemory(count: Int) {
        var rows = (0..<count).map { index in
            DataStoreSnapshot(
                persistentIdentifier: PersistentIdentifier(
                    storeIdentifier: "s", entityName: "Note", primaryKey: "n\(index)"),
                values: ["index": .integer(Int64(index))])
        }
        // Any order: what is checked holds for every one.
        rows.shuffle()
        let order = rows.withUnsafeMutableBufferPointer { MemoryOrder.of($0) }
        #expect(order.sorted() == Array(0..<count), "each row once")
        guard count >= 256 else {
            #expect(order == Array(0..<count), "few rows keep their order")
            return
        }
        // The address of each row's dictionary, read through the dictionary itself (one word on this platform).
        let addresses = rows.map { unsafeBitCast($0.values, to: UInt.self) }
        let misplaced = zip(order, order.dropFirst()).filter { addresses[$0] > addresses[$1] }.count
        #expect(misplaced == 0)
    }
}
