import DataStoreCore
import Foundation
import JSONFileStorage
import TimeSeriesStorage

/// `datastore info PATH`.
enum InfoCommand {
    static func run(_ directory: URL, output: (String) -> Void) throws {
        let store = try OpenedStore.open(directory)
        let history = try store.transactions(after: nil, author: nil, limit: nil)
        var lines: [(String, String)] = [("backend", store.kind.rawValue)]
        switch store {
        case .jsonFile(let json):
            let description = try JSONFileDataStore.describe(directory: directory)
            lines += [
                ("format version", "\(description.format)"), ("store", json.identifier),
                ("epoch", description.epoch.uuidString),
            ]
            let counts = try json.modelCountsByEntity()
            lines += counts.keys.sorted().map { ("models: \($0)", "\(counts[$0] ?? 0)") }
            lines.append(("oldest valid sequence", "\(try json.oldestValidSequence())"))
        case .timeSeries(let series):
            let description = try TimeSeriesDataStore.describe(directory: directory)
            lines += [
                ("format version", "\(description.format)"), ("store", series.identifier),
                ("epoch", description.epoch.uuidString),
            ]
            var counts: [String: Int] = [:]
            for row in history { for change in row.changes { counts[change.entity, default: 0] += 1 } }
            lines += counts.keys.sorted().map { ("samples: \($0)", "\(counts[$0] ?? 0)") }
            lines += [
                ("segments", "\(description.segments.count)"),
                ("oldest valid sequence", "\(try series.oldestValidSequence())"),
            ]
        }
        lines += [
            ("history transactions", "\(history.count)"),
            ("history changes", "\(history.reduce(0) { $0 + $1.changes.count })"),
            ("oldest retained token", history.first?.token ?? "-"),
            ("newest token", history.last?.token ?? "-"),
            ("size on disk", "\(try sizeOnDisk(directory)) bytes"),
        ]
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
