import DataStoreCore
import Foundation
import TimeSeriesStorage

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "timeseries-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    var segments: URL { url.appendingPathComponent("segments") }

    func segmentFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: segments.path).sorted()
    }
}

/// A sensor reading: the time-series store's sample.
struct Reading: PersistentModel, Hashable {
    static let schemaAttributes: [ModelAttribute<Reading>] = [
        .attribute("sensor", \.sensor), .attribute("value", \.value), .attribute("timestamp", \.timestamp),
    ]
    var persistentModelID = PersistentIdentifier()
    var sensor = ""
    var value = 0.0
    var timestamp = Date(timeIntervalSinceReferenceDate: 0)
    init() {}
}

extension TimeSeriesStoreConfiguration {
    static func readings(
        _ directory: URL, span: TimeInterval = 3_600, window: TimeInterval? = nil,
        retention: RetentionPolicy = .keepEverything, durable: Bool = false, readOnly: Bool = false
    ) -> TimeSeriesStoreConfiguration {
        TimeSeriesStoreConfiguration(
            name: "sensors", schema: Schema([Reading.self]), directory: directory, segmentSpan: span,
            acceptedLateness: 3_600, commitWindow: window, retention: retention, isDurable: durable,
            isReadOnly: readOnly)
    }
}

/// Snapshots of readings `indices`, one per second after `start`, with short keys.
func readings(_ indices: some Sequence<Int>, from start: Date, sensor: String = "s1") -> [DataStoreSnapshot] {
    indices.map { index in
        DataStoreSnapshot(
            persistentIdentifier: PersistentIdentifier(
                storeIdentifier: "sensors", entityName: "Reading", primaryKey: "r\(index)"),
            values: [
                "sensor": .string(sensor), "value": .double(Double(index % 1_000) / 10),
                "timestamp": .date(start.addingTimeInterval(Double(index))),
            ])
    }
}

@discardableResult
func append(_ snapshots: [DataStoreSnapshot], to store: TimeSeriesDataStore, author: String? = nil) throws
    -> TimeSeriesHistoryToken?
{
    try store.save(
        DataStoreSaveChangesRequest(editingState: EditingState(author: author), inserted: snapshots)
    ).token
}
