import DataStoreCore
import Foundation
import JSONFileStorage
import StoreFileSupport
import TimeSeriesStorage

/// `datastore verify PATH`: framing and checksums of every file, then the store's own consistency. Never writes.
enum VerifyCommand {
    /// A problem found, with where it is.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    static func run(_ directory: URL, output: (String) -> Void) throws -> Bool {
        do {
            let summary = try verify(directory)
            output("OK: \(summary)")
            return true
        } catch let error as UsageError {
            throw error
        } catch DataStoreError.corruptStoreFile(let path, let offset, let reason) {
            output("CORRUPT: \(path) at byte offset \(offset): \(reason)")
        } catch {
            output("PROBLEM: \(error)")
        }
        return false
    }

    /// Every record of every file must be whole: a torn tail is reported too (a writer would cut it back).
    static func checkFraming(_ path: String, singleRecord: Bool = false) throws -> Int {
        let parsed = try RecordFraming.parse(
            try StoreFile(path: path, mode: .readOnly).readToEnd(from: 0), startingAt: 0, path: path)
        if parsed.hasTornTail {
            throw DataStoreError.corruptStoreFile(
                path: path, offset: parsed.endOfValidData,
                reason: "the last record is incomplete (a torn write)")
        }
        if singleRecord && parsed.records.count != 1 {
            throw DataStoreError.corruptStoreFile(
                path: path, offset: 0, reason: "expected exactly one record")
        }
        return parsed.records.count
    }

    static func verify(_ directory: URL) throws -> String {
        let kind = try OpenedStore.Kind(directory: directory)
        var records = 0
        switch kind {
        case .jsonFile:
            records += try checkFraming(directory.appendingPathComponent("journal.jsonl").path)
            let snapshot = directory.appendingPathComponent("snapshot.json").path
            if FileManager.default.fileExists(atPath: snapshot) {
                records += try checkFraming(snapshot, singleRecord: true)
            }
        case .timeSeries:
            records += try checkFraming(
                directory.appendingPathComponent("index.json").path, singleRecord: true)
            for segment in try TimeSeriesDataStore.describe(directory: directory).segments {
                records += try checkFraming(
                    directory.appendingPathComponent("segments").appendingPathComponent(segment).path)
            }
        }
        // Opening replays the records: sequence gaps, undecodable records and a foreign header are caught here.
        let store = try OpenedStore.open(directory)
        let history = try store.transactions(after: nil, author: nil, limit: nil)
        let oldest: Int64 =
            switch store {
            case .jsonFile(let json): try json.oldestValidSequence()
            case .timeSeries(let series): try series.oldestValidSequence()
            }
        for (offset, row) in history.enumerated()
        where offset > 0 && row.sequence != history[offset - 1].sequence + 1 {
            // History may have holes only where deleteHistory removed single transactions, and never after the
            // oldest valid sequence in a time-series store.
            if kind == .timeSeries || row.sequence <= oldest {
                throw Problem(
                    description: "sequence \(history[offset - 1].sequence) is followed by \(row.sequence)")
            }
        }
        return
            "\(kind.rawValue) store '\(store.identifier)': \(records) records, \(history.count) transactions, "
            + "sequences continuous"
            + (history.isEmpty ? "" : " \(history.first!.sequence)...\(history.last!.sequence)")
    }
}
