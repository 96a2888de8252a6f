import DataStoreCore
import Foundation
import JSONFileStorage
import TimeSeriesStorage

/// A sample of the time-series seeds (`sensors` stores): what the `timeseries` target fetches.
struct FuzzReading: PersistentModel {
    static let schemaAttributes: [ModelAttribute<FuzzReading>] = [
        .attribute("sensor", \.sensor), .attribute("value", \.value), .attribute("timestamp", \.timestamp),
    ]
    static let entityName = "Reading"
    var persistentModelID = PersistentIdentifier()
    var sensor = ""
    var value = 0.0
    var timestamp = Date(timeIntervalSinceReferenceDate: 0)
    init() {}
}

extension FuzzChecks {
    /// A JSON file store directory (journal, snapshot, history segments) from a `StoreArchive`, opened
    /// read-only: its models, history and verification read back or throw a `DataStoreError`, and no byte
    /// changes.
    static func jsonStore(_ bytes: [UInt8], refusalIsFailure: Bool) -> String? {
        StoreArchive.withDirectory(bytes, prefix: "jsonstore") { directory, files in
            do {
                let store = try JSONFileDataStore(
                    JSONFileStoreConfiguration(name: "trips", directory: directory, isReadOnly: true))
                _ = try store.modelCountsByEntity()
                _ = try store.fetchHistory(HistoryDescriptor())
                _ = try store.verify()
            } catch let error as DataStoreError {
                if refusalIsFailure { return "the store refused the input: \(error)" }
            } catch {
                return "opening a damaged JSON file store threw an untyped error: \(error)"
            }
            return StoreArchive.isUnchanged(directory, files) ? nil : "a read-only open changed a file"
        } ?? nil
    }

    /// A time-series store directory (`index.json`, `segments/…`) from a `StoreArchive`, opened read-only: its
    /// samples, history and verification read back or throw a `DataStoreError`, and no byte changes.
    static func timeSeries(_ bytes: [UInt8], refusalIsFailure: Bool) -> String? {
        StoreArchive.withDirectory(bytes, prefix: "timeseries") { directory, files in
            do {
                let store = try TimeSeriesDataStore(
                    TimeSeriesStoreConfiguration(
                        name: "sensors", schema: Schema([FuzzReading.self]), directory: directory,
                        isReadOnly: true))
                _ = try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<FuzzReading>()))
                _ = try store.fetchHistory(HistoryDescriptor())
                _ = try store.verify()
            } catch let error as DataStoreError {
                if refusalIsFailure { return "the store refused the input: \(error)" }
            } catch {
                return "opening a damaged time-series store threw an untyped error: \(error)"
            }
            return StoreArchive.isUnchanged(directory, files) ? nil : "a read-only open changed a file"
        } ?? nil
    }
}
