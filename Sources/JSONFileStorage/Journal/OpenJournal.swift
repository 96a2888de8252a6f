@_spi(DataStoreInternals) import DataStoreCore
import DataStoreKit
import Synchronization

/// The journal file a store appends to, kept open across saves: opening it costs a system call per save,
/// and it only changes when compaction, erasing or a migration replaces it (a new device and inode).
final class OpenJournal: Sendable {
    private struct Handle: @unchecked Sendable {
        // `@unchecked`: the file is used only by the writer holding the store's exclusive lock.
        var identity: StoreFile.Identity
        var file: StoreFile
    }

    private let handle = Lock<Handle?>(nil)

    init() {}

    /// The open journal whose device and inode are `identity`, opening `path` if the one held is another.
    func file(identity: StoreFile.Identity, path: String) throws(DataStoreError) -> StoreFile {
        try handle.withLock { handle throws(DataStoreError) in
            if let open = handle, open.identity == identity { return open.file }
            let file = try StoreFile(path: path, mode: .readWrite(create: false))
            handle = Handle(identity: identity, file: file)
            return file
        }
    }

    /// Closes the journal held, after this instance replaced it (a checkpoint, an erase): an unlinked file
    /// open here keeps its disk space, and the last `close` frees its pages, which the next save would pay for.
    func close() {
        handle.withLock { $0 = nil }
    }
}
