public import DataStoreCore
public import Foundation

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file so that a crash leaves either the old contents or the new, never a mixture: write a
/// temporary file, fsync it, rename it over the target, fsync the directory.
public enum AtomicFileWriter {
    /// Replaces the file at `path` with `contents`, durably.
    public static func replace(_ path: String, with contents: Data) throws(DataStoreError) {
        let temporary = path + ".tmp-\(getpid())"
        do {
            let file = try StoreFile(path: temporary, mode: .readWrite(create: true))
            try file.truncate(to: 0)
            try file.write(contents, at: 0)
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
        try synchronizeDirectory(containing: path)
    }

    /// Flushes a directory entry change (a rename or a new file) to the device.
    public static func synchronizeDirectory(containing path: String) throws(DataStoreError) {
        let directory = (path as NSString).deletingLastPathComponent
        let file = try StoreFile(path: directory.isEmpty ? "." : directory, mode: .readOnly)
        try file.synchronize()
    }

    /// Removes a file if it exists, durably.
    public static func remove(_ path: String) throws(DataStoreError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw systemError("unlink", path: path) }
        FaultInjection.note(.unlink(path: path), path: path)
        try synchronizeDirectory(containing: path)
    }

    /// Unlinks `path`, best effort, without synchronizing its directory (the caller does once for many); `false`
    /// when it could not.
    @discardableResult
    package static func unlinkWithoutSynchronizing(_ path: String) -> Bool {
        guard unlink(path) == 0 else { return false }
        FaultInjection.note(.unlink(path: path), path: path)
        return true
    }

    /// Removes the temporary files that `replace(_:with:)` calls of crashed processes left in `directory`
    /// (`NAME.tmp-PID` whose process no longer runs). Call holding the store's exclusive lock: every writer
    /// of a temporary file holds it, so none can be in progress in a live process that does not.
    public static func removeLeftovers(in directory: String) throws(DataStoreError) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw .storageUnavailable(path: directory, reason: "cannot list the directory")
        }
        var removed = false
        for name in names {
            guard let marker = name.range(of: ".tmp-", options: .backwards),
                let owner = Int32(name[marker.upperBound...]), owner > 0
            else { continue }
            // `kill(pid, 0)` fails with ESRCH only when no such process exists.
            guard owner != getpid(), kill(owner, 0) != 0, errno == ESRCH else { continue }
            let path = directory + "/" + name
            guard unlink(path) == 0 || errno == ENOENT else { throw systemError("unlink", path: path) }
            FaultInjection.note(.unlink(path: path), path: path)
            removed = true
        }
        if removed { try synchronizeDirectory(containing: directory + "/.") }
    }
}
