import DataStoreCore
import DataStoreKit

/// The order in which a fetch makes its models: the order of the rows' values in memory.
///
/// A store answers an unsorted fetch in identifier order, and identifiers are random keys, so consecutive rows
/// sit anywhere in the heap: making each row's model touched its dictionary and each of its strings' storage
/// (to retain them) at random, a cache miss each. Rows were mostly allocated in the order they were saved,
/// their strings with them, so making the models in the order of the dictionaries' addresses walks the heap
/// forwards, which the processor's prefetcher follows. The models still come out in the store's order.
enum MemoryOrder {
    /// Where a snapshot's values lie inside it.
    private static let valuesOffset = MemoryLayout<DataStoreSnapshot>.offset(of: \DataStoreSnapshot.values)

    /// The positions of `snapshots`, ordered by the address of each one's dictionary of values: read as a word
    /// from the snapshot (no retain, no access to the dictionary itself), a key for sorting only. Few rows, or a
    /// dictionary that is not one word (its address unknown), keep their order.
    static func of(_ snapshots: UnsafeMutableBufferPointer<DataStoreSnapshot>) -> [Int] {
        guard snapshots.count >= 256, MemoryLayout<[String: SnapshotValue]>.size == MemoryLayout<UInt>.size,
            let offset = valuesOffset, let base = snapshots.baseAddress
        else { return Array(snapshots.indices) }
        let stride = MemoryLayout<DataStoreSnapshot>.stride
        var keys = snapshots.indices.map { position in
            IdentifierOrder.PrefixKey(
                high: UInt64(
                    UnsafeRawPointer(base).load(fromByteOffset: position * stride + offset, as: UInt.self)),
                low: 0, index: position)
        }
        // The radix sort identifier order uses (the addresses' shared high bytes and the empty low word are
        // skipped): sorting the pairs through a comparison was a twentieth of a fetch of 16,000 rows.
        IdentifierOrder.radixSort(&keys)
        return keys.map(\.index)
    }
}
