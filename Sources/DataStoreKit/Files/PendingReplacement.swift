package import DataStoreCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file replacement half done (``AtomicFileWriter/written(_:_:)``): the new contents are in a temporary
/// file, not yet known to be on the device, and the target is unchanged. ``complete()`` does the rest.
///
/// `@unchecked Sendable`: it is made on one thread and may be completed on another, once; the hand-off (a
/// thread's start, a group's wait) orders the two, and nothing else touches it.
package final class PendingReplacement: @unchecked Sendable {
    private let file: StoreFile
    private let path: String

    init(file: StoreFile, replacing path: String) {
        self.file = file
        self.path = path
    }

    /// Synchronises the temporary file, renames it over the target and synchronises the directory: after it
    /// returns, the target holds the new contents durably. On failure the temporary file is removed and the
    /// target is either unchanged or (after the rename) replaced, as ``AtomicFileWriter/replace(_:with:)``
    /// leaves it.
    package func complete() throws(DataStoreError) {
        let temporary = file.path
        do {
            try file.synchronize()
        } catch {
            unlink(temporary)
            throw error
        }
        guard !FaultInjection.shouldFail(.rename, path: path), rename(temporary, path) == 0 else {
            let failure = systemError("rename", path: path)
            unlink(temporary)
            throw failure
        }
        FaultInjection.note(.rename(from: temporary, to: path), path: path)
        try AtomicFileWriter.synchronizeDirectory(containing: path)
    }
}
