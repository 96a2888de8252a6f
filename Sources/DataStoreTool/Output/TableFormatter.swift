import DataStoreCore
import Foundation

/// Aligned text tables, one line per change, for `history` and `tail`.
enum TableFormatter {
    static let headers = [
        "TIME", "SEQ", "AUTHOR", "PROCESS", "KIND", "ENTITY", "IDENTIFIER", "UPDATED", "TOMBSTONE",
    ]

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
