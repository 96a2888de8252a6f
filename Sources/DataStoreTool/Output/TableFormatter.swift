import DataStoreCore
import Foundation

/// Aligned text tables, one line per change, for `history` and `tail`.
enum TableFormatter {
    static let headers = [
        "TIME", "SEQ", "AUTHOR", "PROCESS", "KIND", "ENTITY", "IDENTIFIER", "UPDATED", "TOMBSTONE",
    ]

    /// The headers with `--values`: the last column shows each attribute's old and new value.
    static let valueHeaders = Array(headers.dropLast(2)) + ["VALUES (old → new)"]

    /// One line per change with `--values`: an update's attributes as `name: old → new` (`?` where history did not
    /// keep the old value), an insert's values, a delete's last values.
    static func valueCells(_ row: TransactionRow) -> [[String]] {
        let base = Array(cells(row).first?.prefix(4) ?? [])
        guard !row.changes.isEmpty else { return [base + ["-", "-", "-", "-"]] }
        return row.changes.map { change in
            let previous = change.previousValues ?? [:]
            let shown: String
            switch change.kind {
            case "update":
                shown = change.updatedAttributes.map { name in
                    "\(name): \(previous[name].map(describe) ?? "?") → \(change.values?[name].map(describe) ?? "?")"
                }.joined(separator: ", ")
            case "delete":
                shown =
                    describe((change.tombstone ?? [:]).merging(previous) { _, last in last }) + " → (deleted)"
            default:
                shown = change.values.map(describe) ?? "-"
            }
            return base + [change.kind, change.entity, change.identifier, shown.isEmpty ? "-" : shown]
        }
    }

    static func cells(_ row: TransactionRow) -> [[String]] {
        let time = ISO8601DateFormatter.string(
            from: row.timestamp, timeZone: TimeZone(identifier: "UTC")!,
            formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        let base = [time, String(row.sequence), row.author ?? "-", row.process]
        guard !row.changes.isEmpty else { return [base + ["-", "-", "-", "-", "-"]] }
        return row.changes.map { change in
            base + [
                change.kind, change.entity, change.identifier,
                change.updatedAttributes.isEmpty ? "-" : change.updatedAttributes.joined(separator: ","),
                change.tombstone.map(describe) ?? "-",
            ]
        }
    }

    static func describe(_ values: [String: SnapshotValue]) -> String {
        values.sorted { $0.key < $1.key }.map { "\($0.key)=\(describe($0.value))" }.joined(separator: " ")
    }

    static func describe(_ value: SnapshotValue) -> String {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): String(flag)
        case .date(let date): ISO8601DateFormatter().string(from: date)
        case .data(let data): "<\(data.count) bytes>"
        case .uuid(let uuid): uuid.uuidString
        case .identifier(let id): "\(id)"
        case .array(let values): "[" + values.map(describe).joined(separator: ",") + "]"
        case .null: "null"
        }
    }

    /// The rows as an aligned table, with a header.
    static func table(_ rows: [TransactionRow]) -> String {
        let lines = [headers] + rows.flatMap(cells)
        return align(lines)
    }

    /// The rows as an aligned table with old and new values, with a header.
    static func valueTable(_ rows: [TransactionRow]) -> String {
        align([valueHeaders] + rows.flatMap(valueCells))
    }

    static func align(_ lines: [[String]]) -> String {
        let widths = (0..<(lines.first?.count ?? 0)).map { column in lines.map { $0[column].count }.max() ?? 0
        }
        return lines.map { cells in
            cells.enumerated().map { column, cell in
                column == cells.count - 1
                    ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
