package import DataStoreCore

/// A file a store's in-memory state was read from, held open. The stores recognise a file that another
/// process replaced (by rename) by its device and inode; while the file stays open its inode cannot be freed
/// and handed to the file that replaces it a replacement or two later, which would otherwise look like the one
/// that was read (ext4 hands a freed inode out again at once: seen as a reader that kept an erased epoch and
/// missed a commit).
package final class PinnedFile: @unchecked Sendable {
    // `@unchecked`: the file is only held, `fstat`ed and read with `pread` (no shared file position).
    private let file: StoreFile
    /// The file's device and inode.
    package let identity: StoreFile.Identity

    /// Pins an open file.
    package init(_ file: StoreFile) throws(DataStoreError) {
        self.file = file
        identity = try file.status().identity
    }

    /// The file's status now (one `fstat`, no path lookup): a file another process replaced by rename has
    /// no links left.
    package func status() throws(DataStoreError) -> StoreFile.Status {
        try file.status()
    }

    /// The byte at `offset`, or `nil` past the end of the file: one `pread`. Whether a record starts where the
    /// last one read ended, or free space does (a zero).
    package func byte(at offset: Int64) throws(DataStoreError) -> UInt8? {
        try file.read(from: offset, count: 1).first
    }

    /// Opens and pins the file at `path`.
    package convenience init(path: String) throws(DataStoreError) {
        try self.init(StoreFile(path: path, mode: .readOnly))
    }
}
