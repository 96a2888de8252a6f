public import Foundation

/// A journal's records: the file's bytes without the free space (zero bytes) a durable save writes after
/// them. Tests that edit records write these back, which leaves a journal without free space (as valid).
public func recordBytes(of file: URL) throws -> Data {
    let bytes = try Data(contentsOf: file)
    guard let last = bytes.lastIndex(where: { $0 != 0 }) else { return Data() }
    return bytes.prefix(through: last)
}

/// Whether a directory entry is the lock file, whose change count every exclusive lock moves: not data, so
/// "nothing was written" leaves it out.
public func isLockFile(_ name: String) -> Bool {
    (name as NSString).lastPathComponent == "lock"
}
