import DataStoreCore
import DataStoreKit
import Foundation

/// The samples of one save (or of a commit window's saves), checked and encoded in one pass.
///
/// Ingest is the time-series store's hot path, and checking a sample against its entity's attributes, finding
/// its time and writing its JSON all visit the same values. A batch visits them once, in the dictionary's
/// order, placing each by its attribute's position among the entity's attribute names sorted (the order the
/// commit record's keys take; a name without a position is an attribute the entity lacks), then writes them in
/// that order. A large save is checked and encoded in chunks on all cores. The record then takes the encoded
/// samples and their checksum as they are (``CommitCodec/line(_:samples:)``).
struct SampleBatch: Sendable {
    /// The samples, in the order saved.
    private(set) var samples: [SegmentRecord.Sample] = []
    /// The earliest and latest sample time; `nil` for an empty batch.
    private(set) var earliest: Date?
    private(set) var latest: Date?
    /// The elements of the record's `samples` array, comma-separated, as ``CommitCodec`` writes them.
    private(set) var encoded: [UInt8] = []
    /// The CRC-32 of `encoded`, computed where it was encoded.
    private(set) var encodedChecksum: UInt32 = 0

    /// The rules a save's samples follow.
    struct Rules: Sendable {
        /// The store every sample must name.
        var store: String
        /// The schema whose entities and attributes samples must use; `nil` when the store has none.
        var schema: Schema?
        /// The attribute that must hold each sample's date.
        var timestampAttribute: String
    }

    /// An empty batch.
    init() {}

    /// Checks `inserted` against `rules` and encodes it.
    ///
    /// - Throws: ``DataStoreError/invalidSave(store:reason:)`` for a sample naming another store, a model
    ///   named twice, an attribute its entity lacks or a sample without a date in the timestamp attribute;
    ///   ``DataStoreError/unknownEntity(store:entity:)`` for an entity the schema lacks.
    init(validating inserted: [DataStoreSnapshot], rules: Rules) throws(DataStoreError) {
        // The checks and the encoding; a large save in chunks on all cores. The chunks' bytes joined are the
        // bytes of the whole, and a failure is reported for the first chunk that has one. Which store each
        // sample names, and whether one is named twice, is one pass over the whole save, made by the first
        // chunk's thread before its own (smaller) share.
        let chunks = Self.chunks(of: inserted.indices)
        guard chunks.count > 1 else {
            try Self.checkStoresAndRepeats(inserted, rules: rules)
            self = try Self(checking: inserted[...], rules: rules)
            return
        }
        let results = ParallelChunks.map(chunks.count) { chunk in
            let wholeSave =
                chunk == 0
                ? Result { () throws(DataStoreError) in try Self.checkStoresAndRepeats(inserted, rules: rules)
                }
                : .success(())
            let batch = Result { () throws(DataStoreError) in
                try SampleBatch(checking: inserted[chunks[chunk]], rules: rules)
            }
            return (wholeSave: wholeSave, batch: batch)
        }
        try results[0].wholeSave.get()
        for result in results { append(contentsOf: try result.batch.get()) }
    }

    /// Throws for a sample naming another store or a model named twice in `inserted`.
    private static func checkStoresAndRepeats(_ inserted: [DataStoreSnapshot], rules: Rules)
        throws(DataStoreError)
    {
        var seen = SampleKeySet(capacity: inserted.count)
        for snapshot in inserted {
            let id = snapshot.persistentIdentifier
            guard id.storeIdentifier == rules.store else {
                throw .invalidSave(
                    store: rules.store, reason: "model \(id) names store '\(id.storeIdentifier ?? "nil")'")
            }
            guard seen.insert(entity: id.entityName, key: id.primaryKey) else {
                throw .invalidSave(store: rules.store, reason: "model \(id) appears more than once")
            }
        }
    }

    /// Saves of at least this many samples per core are checked and encoded in parallel.
    static let parallelChunkSize = 256

    /// What checking a sample's store and key costs, as a share of checking and encoding it (measured with
    /// `perf` on the ingest benchmark: about a fifth). The first chunk gets that much less to encode.
    static let wholeSavePassCost = 0.2

    /// `indices` split into one chunk per core, each core's share of at least ``parallelChunkSize`` samples,
    /// so that all cores finish together: the first chunk, whose thread also checks every sample's store and
    /// key, is smaller by that pass's cost (empty on many cores), and the others are equal.
    static func chunks(
        of indices: Range<Int>, cores: Int = ParallelChunks.cores
    ) -> [Range<Int>] {
        let count = max(1, min(cores, indices.count / parallelChunkSize))
        guard count > 1 else { return [indices] }
        let total = Double(indices.count)
        let first = max(
            0, Int((total * ((1 + wholeSavePassCost) / Double(count) - wholeSavePassCost)).rounded()))
        let rest = indices.count - first
        let start = indices.lowerBound + first
        return [indices.lowerBound..<start]
            + (0..<(count - 1)).map { chunk in
                (start + rest * chunk / (count - 1))..<(start + rest * (chunk + 1) / (count - 1))
            }
    }

    /// Checks each sample's entity, attributes and time, and encodes them (stores and repeats are checked over
    /// the whole save, by ``checkStoresAndRepeats(_:rules:)``).
    private init(checking inserted: ArraySlice<DataStoreSnapshot>, rules: Rules) throws(DataStoreError) {
        samples.reserveCapacity(inserted.count)
        var layouts: [String: EntityLayout] = [:]
        // The layout of the last sample's entity: samples of one entity mostly come together, and comparing
        // two names costs less than hashing one (or copying a layout).
        var layoutEntity: String?
        var layout: EntityLayout?
        var found: [(position: Int, index: Dictionary<String, SnapshotValue>.Index)] = []
        var writer = JSONWriter()
        writer.reserveCapacity(inserted.count * 128)
        for snapshot in inserted {
            let id = snapshot.persistentIdentifier
            if let schema = rules.schema, layoutEntity != id.entityName {
                if let known = layouts[id.entityName] {
                    layout = known
                } else {
                    guard let entity = schema.entity(named: id.entityName) else {
                        throw .unknownEntity(store: rules.store, entity: id.entityName)
                    }
                    let made = EntityLayout(entity, timestampAttribute: rules.timestampAttribute)
                    layouts[id.entityName] = made
                    layout = made
                }
                layoutEntity = id.entityName
            }
            let time = try Self.encode(snapshot, layout: layout, rules: rules, found: &found, into: &writer)
            earliest = min(earliest ?? time, time)
            latest = max(latest ?? time, time)
            samples.append(
                SegmentRecord.Sample(entity: id.entityName, key: id.primaryKey, values: snapshot.values))
        }
        encoded = writer.bytes
        encodedChecksum = writer.withBytes { CRC32.checksum($0) }
    }

    private static let commaChecksum = CRC32.checksum([UInt8(ascii: ",")])

    /// Adds `other`'s samples after this batch's.
    mutating func append(contentsOf other: SampleBatch) {
        guard let otherEarliest = other.earliest, let otherLatest = other.latest else { return }
        samples += other.samples
        earliest = min(earliest ?? otherEarliest, otherEarliest)
        latest = max(latest ?? otherLatest, otherLatest)
        if encoded.isEmpty {
            encodedChecksum = other.encodedChecksum
        } else {
            encoded.append(UInt8(ascii: ","))
            encodedChecksum = CRC32.combine(
                CRC32.combine(encodedChecksum, Self.commaChecksum, secondLength: 1), other.encodedChecksum,
                secondLength: other.encoded.count)
        }
        encoded += other.encoded
    }

    /// An entity's attribute names in the order a record writes them, and where the timestamp is among them.
    struct EntityLayout {
        var sortedNames: [String]
        /// `sortedNames` spelled as keys.
        var keys: [JSONWriter.EncodedKey]
        var timestampPosition: Int?

        init(_ entity: Schema.Entity, timestampAttribute: String) {
            sortedNames = entity.attributes.map(\.name).sorted()
            keys = sortedNames.map(JSONWriter.EncodedKey.init)
            timestampPosition = sortedNames.firstIndex(of: timestampAttribute)
            positions =
                sortedNames.count > 16
                ? Dictionary(uniqueKeysWithValues: sortedNames.enumerated().map { ($1, $0) }) : nil
        }

        /// Where `name` is in `sortedNames`: found by comparing names for a small entity (cheaper than
        /// hashing the name), and by hashing for a large one.
        func position(of name: String) -> Int? {
            if let positions { return positions[name] }
            return sortedNames.firstIndex(of: name)
        }

        /// `sortedNames` by name, for entities with many attributes.
        private let positions: [String: Int]?
    }

    /// Writes one sample's object and returns its time.
    ///
    /// With a layout, the values are visited in the dictionary's order (no name is hashed), each placed by its
    /// position among the sorted names, then written in that order; `found` is scratch space for it.
    private static func encode(
        _ snapshot: DataStoreSnapshot, layout: EntityLayout?, rules: Rules,
        found: inout [(position: Int, index: Dictionary<String, SnapshotValue>.Index)],
        into writer: inout JSONWriter
    ) throws(DataStoreError) -> Date {
        let id = snapshot.persistentIdentifier
        let values = snapshot.values
        CommitCodec.beginSample(entity: id.entityName, key: id.primaryKey, into: &writer)
        var time: Date?
        if let layout {
            found.removeAll(keepingCapacity: true)
            var index = values.startIndex
            while index != values.endIndex {
                guard let position = layout.position(of: values.keys[index]) else {
                    let unknown = values.keys.sorted().first { layout.position(of: $0) == nil } ?? ""
                    throw .invalidSave(
                        store: rules.store, reason: "\(id.entityName) has no attribute '\(unknown)'")
                }
                // Insertion sort: a sample holds a handful of values.
                var at = found.count
                found.append((position, index))
                while at > 0, found[at - 1].position > position {
                    found.swapAt(at - 1, at)
                    at -= 1
                }
                values.formIndex(after: &index)
            }
            writer.beginObject()
            for (position, index) in found {
                // Through `values`, not the (key, value) subscript: no copy of the key.
                let value = values.values[index]
                writer.key(layout.keys[position])
                writer.value(value)
                if position == layout.timestampPosition, case .date(let date) = value { time = date }
            }
            writer.endObject()
        } else {
            writer.values(values)
            if case .date(let date) = values[rules.timestampAttribute] { time = date }
        }
        writer.endObject()
        guard let time else {
            throw .invalidSave(
                store: rules.store,
                reason: "sample \(id) has no date in its '\(rules.timestampAttribute)' attribute")
        }
        return time
    }
}
