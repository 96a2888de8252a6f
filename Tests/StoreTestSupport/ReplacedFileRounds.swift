public import Foundation

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
}
