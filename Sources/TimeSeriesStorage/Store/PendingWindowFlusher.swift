@_spi(DataStoreInternals) import DataStoreCore
import Foundation
import Synchronization

/// Commits the open commit windows of every time-series store when the process exits normally (`exit`, or
/// returning from `main`), so that a program that never calls `flush()` does not lose its last window. It
/// runs in ``ExitCoordinator``'s store phase, after autosaving contexts saved into the windows. A crash or
/// `kill -9` still loses it: the window's samples are in memory only until it is committed.
final class PendingWindowFlusher: Sendable {
    static let shared = PendingWindowFlusher()

    private struct Entry: @unchecked Sendable {
        // `@unchecked`: a weak reference to a `Sendable` store, only touched under the mutex.
        weak var store: TimeSeriesDataStore?
    }

    private let stores = Lock<(entries: [Entry], installed: Bool)>(([], false))

    /// Remembers `store`, which holds an open window, until the process exits.
    func register(_ store: TimeSeriesDataStore) {
        let install = stores.withLock { stores -> Bool in
            stores.entries.removeAll { $0.store == nil || $0.store === store }
            stores.entries.append(Entry(store: store))
            defer { stores.installed = true }
            return !stores.installed
        }
        if install {
            ExitCoordinator.shared.register(.flushStores) { PendingWindowFlusher.shared.flushAll() }
        }
    }

    /// Commits every registered store's open window; failures go to standard error.
    func flushAll() {
        let open = stores.withLock { $0.entries.compactMap(\.store) }
        for store in open {
            do {
                try store.flush()
            } catch {
                FileHandle.standardError.write(
                    Data(
                        "TimeSeriesStorage: committing the open window of '\(store.identifier)' at exit failed: \(error)\n"
                            .utf8))
            }
        }
    }
}
