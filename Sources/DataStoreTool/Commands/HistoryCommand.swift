import DataStoreCore
import Foundation

/// `datastore history PATH [...]`.
enum HistoryCommand {
    static func run(_ open: () throws -> OpenedStore, _ arguments: ParsedArguments, output: (String) -> Void)
        throws
    {
        let token = try TokenOption.read(arguments)
        var limit: Int?
        if let text = arguments.options["limit"] {
            guard let value = Int(text), value >= 0 else {
                throw UsageError("--limit takes a whole number, not '\(text)'")
            }
            limit = value
        }
        var since: Date?
        if let text = arguments.options["since"] {
            guard
                let date = ISO8601DateFormatter().date(from: text)
                    ?? ISO8601DateFormatter.withFractions.date(from: text)
            else {
                throw UsageError("--since takes an ISO 8601 date such as 2026-11-20T09:00:00Z, not '\(text)'")
            }
            since = date
        }
        guard !(arguments.flags.contains("json") && arguments.flags.contains("jsonl")) else {
            throw UsageError("--json and --jsonl cannot be combined")
        }
        let store = try open()
        // The limit applies after the date filter, so fetch without it when filtering by date.
        var rows = try store.transactions(
            after: token, author: arguments.options["author"], limit: since == nil ? limit : nil)
        if let since {
            rows = rows.filter { $0.timestamp >= since }
            if let limit { rows = Array(rows.prefix(limit)) }
        }
        let showsValues = arguments.flags.contains("values")
        if !showsValues { rows = rows.map(\.withoutValues) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        if arguments.flags.contains("json") {
            encoder.outputFormatting.insert(.prettyPrinted)
            output(String(decoding: try encoder.encode(rows), as: UTF8.self))
        } else if arguments.flags.contains("jsonl") {
            for row in rows { output(String(decoding: try encoder.encode(row), as: UTF8.self)) }
        } else {
            output(showsValues ? TableFormatter.valueTable(rows) : TableFormatter.table(rows))
        }
    }
}

extension ISO8601DateFormatter {
    static var withFractions: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}

/// `--after TOKEN` or `--after-file FILE`.
enum TokenOption {
    static func read(_ arguments: ParsedArguments) throws(UsageError) -> String? {
        switch (arguments.options["after"], arguments.options["after-file"]) {
        case (let token?, nil): return token
        case (nil, let file?):
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw UsageError("cannot read the token file \(file)")
            }
            return text
        case (nil, nil): return nil
        case (_?, _?): throw UsageError("give --after or --after-file, not both")
        }
    }
}
