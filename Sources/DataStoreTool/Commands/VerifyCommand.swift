import DataStoreCore
import DataStoreKit
import Foundation
import JSONFileStorage
import TimeSeriesStorage

#if PostgreSQL
    import PostgresStorage
#endif

/// `datastore verify PATH`: the store checks its own files (framing, checksums, its index) and history. Never
/// writes.
enum VerifyCommand {
    static func run(_ directory: URL, output: (String) -> Void) throws -> Bool {
        do {
            let verification =
                switch try OpenedStore.open(directory) {
                case .jsonFile(let store): try store.verify()
                case .timeSeries(let store): try store.verify()
                #if PostgreSQL
                    case .postgres: throw UsageError("only store directories can be verified")
                #endif
                }
            output("OK: \(verification)")
            return true
        } catch let error as UsageError {
            throw error
        } catch let error as DataStoreError where error.code == .corruptStoreFile {
            output(
                "CORRUPT: \(error.path ?? "?") at byte offset \(error.offset ?? 0): \(error.reason ?? "?")")
            output(
                "(`datastore repair PATH` cuts a damaged journal or active segment back, keeping the removed bytes)"
            )
        } catch {
            output("PROBLEM: \(error)")
        }
        return false
    }
}
