import DataStoreCore
import DataStoreKit
import DataStoreSync
import Foundation
import JSONFileStorage
import TimeSeriesStorage

#if PostgreSQL
    import PostgresStorage
#endif

/// `datastore info PATH` (or a connection string).
enum InfoCommand {
    /// Prints what `store` holds; `directory` is where a file store lives (`nil` for a database).
    static func run(_ store: OpenedStore, directory: URL?, output: (String) -> Void) throws {
        let inspection =
            switch store {
            case .jsonFile(let store): try store.inspect()
            case .timeSeries(let store): try store.inspect()
            #if PostgreSQL
                case .postgres(let store): try store.inspect()
            #endif
            }
        var lines: [(String, String)] = [
            ("backend", inspection.backend), ("format version", "\(inspection.formatVersion)"),
            ("store", inspection.storeIdentifier), ("epoch", inspection.epoch.uuidString),
        ]
        lines += inspection.countsByEntity.keys.sorted().map {
            ("\(inspection.countedThings): \($0)", "\(inspection.countsByEntity[$0] ?? 0)")
        }
        lines += inspection.details.map { ($0.label, $0.value) }
        let schema = try directory.map(SchemaCommand.recordedSchema) ?? store.recordedSchema()
        lines += [
            ("schema version", schema?.version.map { "\($0)" } ?? (schema == nil ? "not recorded" : "none")),
            ("schema entities", schema.map { $0.entities.map(\.name).joined(separator: ", ") } ?? "-"),
        ]
        lines += [
            ("history transactions", "\(inspection.transactionCount)"),
            ("history changes", "\(inspection.changeCount)"),
            // The oldest token that does not throw historyTokenExpired: the first retained transaction's
            // token may already be expired when history was deleted in the middle.
            ("oldest usable token", inspection.oldestUsableToken),
            ("newest token", inspection.newestToken),
        ]
        // A store that syncs (DataStoreSync) keeps its cursors as models: the device's `pull` and `pushed`, or on
        // a server one `device:<name>` per device.
        if schema?.entity(named: SyncCursor.entityName) != nil {
            let cursors = try store.syncCursors()
            lines += cursors.map { ("sync cursor \($0.name)", $0.token.isEmpty ? "(none)" : $0.token) }
            if cursors.isEmpty { lines.append(("sync cursors", "none yet")) }
        }
        if let directory { lines.append(("size on disk", "\(try sizeOnDisk(directory)) bytes")) }
        let width = lines.map(\.0.count).max() ?? 0
        for (label, value) in lines {
            output(label.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value)
        }
    }

    static func sizeOnDisk(_ directory: URL) throws -> Int {
        var total = 0
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let name = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: directory.appendingPathComponent(name).path)
            if attributes[.type] as? FileAttributeType == .typeRegular {
                total += attributes[.size] as? Int ?? 0
            }
        }
        return total
    }
}
