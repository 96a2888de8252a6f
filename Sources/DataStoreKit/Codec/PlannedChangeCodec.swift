public import DataStoreCore

/// A transaction's changes as a JSON array, through the fast codec: how the JSON file store's journal and the
/// PostgreSQL store's history rows spell them. Each change is
/// `{"identifier":…,"kind":…,"previousValues":{…},"tombstone":…,"updatedAttributes":[…],"values":{…}}`, keys
/// sorted as `JSONEncoder` sorts them. `previousValues` and `tombstone` appear only when the change has them;
/// changes written before previous values existed have no `previousValues` and read back without them.
public enum PlannedChangeCodec {
    /// Writes `changes` as an array.
    public static func write(_ changes: [PlannedChange], into writer: inout JSONWriter) {
        write(changes, into: &writer, cores: ParallelChunks.cores)
    }

    /// ``write(_:into:)`` with the work shared among `cores` cores at most (tests compare the shares).
    package static func write(_ changes: [PlannedChange], into writer: inout JSONWriter, cores: Int) {
        var unused: [Range<Int>]?
        write(changes, into: &writer, cores: cores, valueSpans: &unused)
    }

    /// ``write(_:into:)``, appending to `valueSpans`, unless it is `nil`, where each change's `values` object
    /// lies in `writer`, in the changes' order: what a checkpoint right after a bulk save copies instead of
    /// writing the same rows' values again (see `RowEncodings` in the JSON file store).
    package static func write(
        _ changes: [PlannedChange], into writer: inout JSONWriter, valueSpans: inout [Range<Int>]?
    ) {
        write(changes, into: &writer, cores: ParallelChunks.cores, valueSpans: &valueSpans)
    }

    /// Writes `changes` on `cores` cores at most, noting the spans of their values unless `valueSpans` is `nil`.
    private static func write(
        _ changes: [PlannedChange], into writer: inout JSONWriter, cores: Int, valueSpans: inout [Range<Int>]?
    ) {
        writer.beginArray()
        // Most transactions are small: no chunks to compute.
        let chunks =
            changes.count < 2 * parallelChunkLength
            ? []
            : ParallelChunks.ranges(
                of: changes.indices, minimumChunkLength: parallelChunkLength, cores: cores)
        if chunks.count < 2 {
            write(changes[...], into: &writer, valueSpans: &valueSpans)
        } else {
            // A large transaction (a bulk insert, a batch delete) is written in parts on all cores, each part
            // the changes of one chunk as a fresh writer spells them; joined, they are the bytes one writer
            // writes.
            let recording = valueSpans != nil
            let parts = ParallelChunks.map(chunks.count) { chunk in
                var part = JSONWriter()
                var spans: [Range<Int>]? = recording ? [] : nil
                write(changes[chunks[chunk]], into: &part, valueSpans: &spans)
                return (bytes: part.bytes, spans: spans)
            }
            for part in parts {
                let start = writer.elements(part.bytes)
                if let spans = part.spans {
                    valueSpans?.append(
                        contentsOf: spans.map { ($0.lowerBound + start)..<($0.upperBound + start) })
                }
            }
        }
        writer.endArray()
    }

    /// Transactions of at least twice this many changes are written in parts on several cores.
    static let parallelChunkLength = 2_048

    /// Writes `changes` one after the other, as elements of the array being written, noting the spans of their
    /// values when `valueSpans` is not `nil`.
    private static func write(
        _ changes: ArraySlice<PlannedChange>, into writer: inout JSONWriter, valueSpans: inout [Range<Int>]?
    ) {
        var spelling: JSONWriter.IdentifierSpelling?
        valueSpans?.reserveCapacity(changes.count)
        // Each change read in place: iterating the slice would copy each one, retaining and releasing its
        // identifier's strings and its dictionaries.
        changes.withUnsafeBufferPointer { changes in
            for index in changes.indices {
                write(changes[index], spelling: &spelling, into: &writer, valueSpans: &valueSpans)
            }
        }
    }

    /// Writes one change as an object.
    private static func write(
        _ change: borrowing PlannedChange, spelling: inout JSONWriter.IdentifierSpelling?,
        into writer: inout JSONWriter, valueSpans: inout [Range<Int>]?
    ) {
        writer.beginObject()
        writer.key(literal: "identifier")
        writer.identifier(change.identifier, reusing: &spelling)
        writer.key(literal: "kind")
        writer.string(change.kind.rawValue)
        if change.previousValues != nil {
            writer.key(literal: "previousValues")
            writer.values(change.previousValues!)
        }
        if change.tombstone != nil {
            writer.key(literal: "tombstone")
            writer.values(change.tombstone!)
        }
        writer.key(literal: "updatedAttributes")
        writer.beginArray()
        for name in change.updatedAttributes { writer.string(name) }
        writer.endArray()
        writer.key(literal: "values")
        let start = writer.position
        writer.values(change.values)
        valueSpans?.append(start..<writer.position)
        writer.endObject()
    }

    /// The changes an array written by ``write(_:into:)`` holds.
    ///
    /// - Throws: `JSONParser.Failure` when a change lacks a field or holds a value of the wrong shape.
    public static func decode(_ json: JSONValue) throws(JSONParser.Failure) -> [PlannedChange] {
        guard let elements = json.arrayValue else {
            throw JSONParser.Failure(offset: 0, reason: "the changes are not an array")
        }
        var changes: [PlannedChange] = []
        changes.reserveCapacity(elements.count)
        for change in elements {
            guard let identifier = change["identifier"]?.identifierValue,
                let kind = change["kind"]?.stringValue.flatMap(HistoryChangeKind.init(rawValue:)),
                let values = change["values"]?.snapshotValues,
                let updated = change["updatedAttributes"]?.arrayValue?.compactMap(\.stringValue)
            else { throw JSONParser.Failure(offset: 0, reason: "a change lacks a field") }
            var tombstone: [String: SnapshotValue]?
            if let json = change["tombstone"] {
                guard let values = json.snapshotValues else {
                    throw JSONParser.Failure(offset: 0, reason: "a bad tombstone")
                }
                tombstone = values
            }
            var previousValues: [String: SnapshotValue]?
            if let json = change["previousValues"] {
                guard let values = json.snapshotValues else {
                    throw JSONParser.Failure(offset: 0, reason: "bad previous values")
                }
                previousValues = values
            }
            changes.append(
                PlannedChange(
                    kind: kind, identifier: identifier, values: values, updatedAttributes: updated,
                    tombstone: tombstone, previousValues: previousValues))
        }
        return changes
    }
}
