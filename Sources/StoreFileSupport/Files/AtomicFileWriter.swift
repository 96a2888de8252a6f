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
        guard rename(temporary, path) == 0 else {
            let failure = systemError("rename", path: path)
            unlink(temporary)
            throw failure
        }
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
        try synchronizeDirectory(containing: path)
    }
}
