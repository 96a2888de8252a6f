public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The inode-reuse check both file stores run: a store recognises a file another process replaced by its
/// inode, and ext4 hands a freed inode out again at once, so two erases by another instance can leave a file
/// that looks exactly like the one a reader read. Each round the reader reads, the writer erases twice, and the
/// reader must see the writer's new epoch.
public enum ReplacedFileRounds {
    /// Runs up to `rounds` rounds; returns the first round in which the reader kept an erased epoch, or `nil`.
    public static func firstStaleRound(
        rounds: Int = 100, readerEpoch: () throws -> UUID, writerErase: () throws -> Void,
        writerEpoch: () throws -> UUID
    ) throws -> Int? {
        for round in 0..<rounds {
            _ = try readerEpoch()  // the reader's state: the file as it is now
            try writerErase()
            try writerErase()
            if try readerEpoch() != writerEpoch() { return round }
        }
        return nil
    }

    /// Whether the file system of `directory` hands a freed inode out again at once: what makes the rounds
    /// able to catch a store that recognises files by inode without holding them open. Creates, removes and
    /// creates again a file up to 20 times.
    public static func reusesInodes(in directory: URL) throws -> Bool {
        let path = directory.appendingPathComponent("inode-probe").path
        defer { unlink(path) }
        for _ in 0..<20 {
            guard FileManager.default.createFile(atPath: path, contents: Data("a".utf8)) else { return false }
            var first = stat()
            guard stat(path, &first) == 0 else { return false }
            unlink(path)
            _ = FileManager.default.createFile(
                atPath: directory.appendingPathComponent("inode-probe-2").path, contents: nil)
            defer { unlink(directory.appendingPathComponent("inode-probe-2").path) }
            var second = stat()
            guard stat(directory.appendingPathComponent("inode-probe-2").path, &second) == 0 else {
                return false
            }
            if second.st_ino == first.st_ino { return true }
        }
        return false
    }

    /// Whether `directory` is on ext2, ext3 or ext4, which reuse inodes at once (the file systems the rounds
    /// were written for; CI runs on one).
    public static func isOnExtFileSystem(_ directory: URL) -> Bool {
        #if os(Linux)
            // The mount that holds the directory: the longest mount point it lies under.
            guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else {
                return false
            }
            let path = directory.resolvingSymlinksInPath().path
            var best: (point: String, type: String)?
            for line in mounts.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count > 2 else { continue }
                let point = String(fields[1])
                guard path == point || path.hasPrefix(point == "/" ? "/" : point + "/") else { continue }
                if point.count >= (best?.point.count ?? -1) { best = (point, String(fields[2])) }
            }
            return ["ext2", "ext3", "ext4"].contains(best?.type ?? "")
        #else
            return false
        #endif
    }
}
