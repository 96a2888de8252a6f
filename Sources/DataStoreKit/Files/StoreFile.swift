internal import CFileStatus
public import DataStoreCore
public import Foundation
import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file descriptor with the few operations the stores need, each throwing a typed error that names
/// the path.
///
/// Not `Sendable`: each store opens, uses and closes one within a lock.
public final class StoreFile {
    /// How to open a file.
    public enum Mode: Sendable {
        /// Read only; never creates.
        case readOnly
        /// Read and write; creates the file if missing when `create` is set.
        case readWrite(create: Bool)
    }

    /// The file's path.
    public let path: String
    let descriptor: Int32

    /// Opens `path`.
    public init(path: String, mode: Mode) throws(DataStoreError) {
        self.path = path
        let flags: Int32
        switch mode {
        case .readOnly: flags = O_RDONLY
        case .readWrite(let create): flags = O_RDWR | (create ? O_CREAT : 0)
        }
        let fd = retryingOnInterrupt { open(path, flags | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw systemError("open", path: path) }
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }

    /// Whether a file exists at `path`.
    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// A file's device and inode: they change when the file is replaced by rename.
    public struct Identity: Hashable, Sendable {
        /// The device.
        public var device: UInt64
        /// The inode on that device.
        public var inode: UInt64
    }

    /// The file's identity and size, to notice replacement (a new inode) and growth cheaply.
    public struct Status: Hashable, Sendable {
        /// The device and inode.
        public var identity: Identity
        /// The size in bytes.
        public var size: Int64
        /// The number of names the file has: 0 once it was replaced by rename or removed, although it is still
        /// open.
        public var links: UInt64

        init(_ info: stat) {
            identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            size = Int64(info.st_size)
            links = UInt64(info.st_nlink)
        }

        init(_ info: datastore_file_status) {
            identity = Identity(device: info.device, inode: info.inode)
            size = info.size
            links = info.links
        }
    }

    private static let fallbacks = Atomic<Int>(0)

    /// How many status reads fell back on `stat`, which reads the timestamps too (for tests: none on Linux).
    package static var statusReadsWithTimestamps: Int { fallbacks.load(ordering: .relaxed) }

    /// The open file's identity and size. Asks for no timestamp where the system allows (see
    /// `datastore_file_status_get`): on Linux, reading them makes the `fdatasync` after the next write slower.
    public func status() throws(DataStoreError) -> Status {
        var status = datastore_file_status()
        switch datastore_file_status_get(descriptor, nil, &status) {
        case 0: return Status(status)
        case -1: throw systemError("statx", path: path)
        default: break
        }
        Self.fallbacks.add(1, ordering: .relaxed)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw systemError("fstat", path: path) }
        return Status(info)
    }

    /// The identity and size of the file at `path`, or `nil` if there is none (without its timestamps, as
    /// ``status()``).
    public static func status(atPath path: String) -> Status? {
        var status = datastore_file_status()
        switch datastore_file_status_get(-1, path, &status) {
        case 0: return Status(status)
        case -1: return nil
        default: break
        }
        fallbacks.add(1, ordering: .relaxed)
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Status(info)
    }

    /// Reads from `offset` to the end of the file.
    public func readToEnd(from offset: Int64) throws(DataStoreError) -> Data {
        let size = try status().size
        guard size > offset else { return Data() }
        return try read(from: offset, count: Int(size - offset))
    }

    /// Reads up to `count` bytes from `offset`: fewer only at the end of the file.
    public func read(from offset: Int64, count: Int) throws(DataStoreError) -> Data {
        guard count > 0 else { return Data() }
        var data = Data(count: count)
        var done = 0
        while done < data.count {
            let count = data.withUnsafeMutableBytes { buffer in
                pread(
                    descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw systemError("pread", path: path) }
            if count == 0 { break }
            done += count
        }
        return data.prefix(done)
    }

    /// Writes all of `data` at `offset` (normally the end of the valid data).
    public func write(_ data: Data, at offset: Int64) throws(DataStoreError) {
        if FaultInjection.shouldFail(.write, path: path) { throw systemError("pwrite", path: path) }
        var done = 0
        while done < data.count {
            let count = data.withUnsafeBytes { buffer in
                pwrite(
                    descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw systemError("pwrite", path: path) }
            done += count
        }
        FaultInjection.note(.write(path: path, offset: offset, bytes: data), path: path)
    }

    /// Flushes the file's data to the device, with the metadata needed to read it back (its size): what a
    /// durable append needs. `fdatasync` on Linux, as SQLite uses; `fsync` elsewhere.
    public func synchronize() throws(DataStoreError) {
        if FaultInjection.shouldFail(.synchronize, path: path) { throw systemError("fsync", path: path) }
        #if os(Linux)
            guard retryingOnInterrupt({ fdatasync(descriptor) }) == 0 else {
                throw systemError("fdatasync", path: path)
            }
        #else
            guard retryingOnInterrupt({ fsync(descriptor) }) == 0 else {
                throw systemError("fsync", path: path)
            }
        #endif
        FaultInjection.note(.synchronize(path: path), path: path)
    }

    /// Cuts the file to `length` bytes.
    public func truncate(to length: Int64) throws(DataStoreError) {
        if FaultInjection.shouldFail(.truncate, path: path) { throw systemError("ftruncate", path: path) }
        guard retryingOnInterrupt({ ftruncate(descriptor, off_t(length)) }) == 0 else {
            throw systemError("ftruncate", path: path)
        }
        FaultInjection.note(.truncate(path: path, length: length), path: path)
    }

    /// Appends one framed record (a line ending in `\n`) at `offset`, the end of the valid data, and makes it
    /// durable when `synchronize` is set.
    ///
    /// If the write or the fsync fails, the file is cut back to `offset`, so that no other process ever reads
    /// a record whose save was rejected, and the error is rethrown: the store stays usable. If the cut-back
    /// fails too, the record's terminating newline is overwritten, which turns it into a torn tail that
    /// readers ignore and the next writer cuts back, and
    /// `DataStoreError/storeUnusableUntilReopened(path:reason:)` is thrown: the caller must refuse every
    /// later call until it is reopened, since it no longer knows what the file holds.
    public func appendRecord(_ line: Data, at offset: Int64, synchronize durable: Bool) throws(DataStoreError)
    {
        try appendRecords([line], at: offset, synchronize: durable)
    }

    /// Appends several framed records at `offset` in one write, made durable by one `fdatasync` when
    /// `synchronize` is set: a group commit. On failure every record is cut back (or, if that fails, every
    /// record's newline is overwritten, so that the whole group reads as one torn tail), as for one record.
    ///
    /// - Parameters:
    ///   - lines: The framed records, in order.
    ///   - offset: Where the first record goes: the end of the last whole record.
    ///   - durable: Whether to `fdatasync` after the write.
    ///   - freeSpace: When the records would end past the end of the file, this many zero bytes are written
    ///     after them in the same write, so that the records that follow are written into the file without
    ///     changing its size (see ``RecordFraming/Ending/preallocated``). 0 writes only the records. A disk
    ///     too full for the free space is asked for the records alone: free space must never be why a save
    ///     fails.
    public func appendRecords(
        _ lines: [Data], at offset: Int64, synchronize durable: Bool, freeSpace: Int = 0
    ) throws(DataStoreError) {
        let records = lines.count == 1 ? lines[0] : lines.reduce(into: Data()) { $0.append($1) }
        if freeSpace > 0, offset + Int64(records.count) > (try status().size) {
            do {
                return try write(
                    records + Data(count: freeSpace), of: lines, at: offset, synchronize: durable)
            } catch {
                // Cut back already: the records alone may still fit.
                guard error.isOutOfSpace else { throw error }
            }
        }
        try write(records, of: lines, at: offset, synchronize: durable)
    }

    /// Writes `bytes` (the framed `lines`, maybe followed by free space) at `offset`; on failure cuts them
    /// back, or, if that fails too, makes them one torn tail.
    private func write(_ bytes: Data, of lines: [Data], at offset: Int64, synchronize durable: Bool)
        throws(DataStoreError)
    {
        do {
            try write(bytes, at: offset)
            if durable { try synchronize() }
        } catch {
            do {
                try truncate(to: offset)
            } catch let cutBack {
                if let size = try? status().size, size > offset {
                    var end = offset
                    for line in lines {
                        end += Int64(line.count)
                        if end <= size { try? write(Data(" ".utf8), at: end - 1) }
                    }
                    try? synchronize()
                }
                throw .storeUnusableUntilReopened(
                    path: path,
                    reason: "\(error.description) and cutting the rejected records back failed: "
                        + cutBack.description)
            }
            throw error
        }
    }
}
