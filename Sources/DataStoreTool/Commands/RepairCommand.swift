import DataStoreCore
import DataStoreKit
import Foundation
import JSONFileStorage
import TimeSeriesStorage

/// `datastore repair PATH`: cuts a damaged journal (or active segment) back to its last good record and keeps
/// the removed bytes in a side file beside it.
enum RepairCommand {
    static func run(_ directory: URL, output: (String) -> Void) throws {
        let report: StoreRepairReport? =
            switch try OpenedStore.Kind(directory: directory) {
            case .jsonFile: try JSONFileDataStore.repair(directory: directory)
            case .timeSeries: try TimeSeriesDataStore.repair(directory: directory)
            }
        guard let report else {
            output("nothing to repair: every record of the journal or active segment is whole")
            return
        }
        output("repaired: \(report)")
        output(
            "The transactions in those bytes are no longer in the store; the side file keeps them as evidence."
        )
    }
}
