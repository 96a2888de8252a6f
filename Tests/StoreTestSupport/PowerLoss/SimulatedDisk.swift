package import DataStoreKit
package import Foundation

/// The disk states a power loss could leave, built from a workload's recorded file operations.
///
/// The model (what the simulated disk may and may not do):
///
/// - A file's contents are durable up to its last `fsync`/`fdatasync`; writes after it (and truncations) are
///   each split into 4 KiB pages, and a crash may keep any subset of those pages, in any combination: later
///   pages without earlier ones included.
/// - A directory entry change (a new file, a rename, an unlink) is durable once its directory is synchronized;
///   before that, a crash keeps a prefix of the changes in the order they were made (as a journaling file
///   system commits its metadata in order).
/// - A synchronized file never loses what it held at the synchronization; nothing is ever corrupted on its
///   own (bit rot is the damage tests' business, not this harness's).
///
/// - Each directory is synchronized on its own: synchronizing one makes durable only the changes of the entries
///   it holds, never those of its subdirectories or its parent.
///
/// Files are tracked by identity (an inode), so a rename moves contents, not names. Paths are relative to the
/// store's directory and may lie in its subdirectories; directories are neither created nor removed during a
/// workload (the stores create theirs when they are first opened).
package struct SimulatedDisk {
    /// One page-sized piece of a write, or a truncation, not yet synchronized.
    enum PendingWrite {
        case bytes(offset: Int, Data)
        case truncate(Int)
    }

    struct File {
        var durable: Data
        var pending: [PendingWrite] = []
    }

    enum NameChange {
        case link(String, Int)
        case unlink(String)

        var name: String {
            switch self {
            case .link(let name, _), .unlink(let name): name
            }
        }
    }

    static let pageSize = 4_096

    private var files: [Int: File] = [:]
    /// Names as the running program sees them.
    private var names: [String: Int] = [:]
    /// Names as they are on the disk.
    private var durableNames: [String: Int] = [:]
    /// Name changes since the directory was last synchronized, in order.
    private var pendingNames: [NameChange] = []
    private var nextInode = 0
    /// The store's directory: every path is in it or in one of `subdirectories`.
    let directory: String
    /// The subdirectories, relative to `directory`.
    package let subdirectories: Set<String>

    /// A disk holding `contents` (relative path → bytes) in `directory` and its `subdirectories` (relative
    /// paths), all of it durable.
    package init(directory: String, subdirectories: Set<String> = [], contents: [String: Data]) {
        self.directory = directory
        self.subdirectories = subdirectories
        for (name, data) in contents {
            let inode = newInode()
            files[inode] = File(durable: data)
            names[name] = inode
            durableNames[name] = inode
        }
    }

    private mutating func newInode() -> Int {
        nextInode += 1
        return nextInode
    }

    private func relative(_ path: String) -> String? {
        guard path.hasPrefix(directory + "/") else { return nil }
        return String(path.dropFirst(directory.count + 1))
    }

    /// The contents the running program sees for a file.
    private func current(_ inode: Int) -> Data {
        guard let file = files[inode] else { return Data() }
        return Self.apply(file.pending[...], to: file.durable)
    }

    private static func apply(_ writes: some Sequence<PendingWrite>, to base: Data) -> Data {
        var data = base
        for write in writes {
            switch write {
            case .bytes(let offset, let bytes):
                if data.count < offset + bytes.count {
                    data.append(Data(count: offset + bytes.count - data.count))
                }
                data.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
            case .truncate(let length):
                if data.count > length {
                    data = data.prefix(length)
                } else {
                    data.append(Data(count: length - data.count))
                }
            }
        }
        return data
    }

    /// Applies one recorded operation.
    package mutating func apply(_ event: IOEvent) {
        switch event {
        case .write(let path, let offset, let written):
            guard let name = relative(path) else { return }
            let bytes = Data(written)  // a slice's indices do not start at zero
            let inode = inodeCreating(name)
            var position = 0
            // Split at page boundaries of the file, as the page cache writes it back.
            while position < bytes.count {
                let start = Int(offset) + position
                let pageEnd = (start / Self.pageSize + 1) * Self.pageSize
                let length = min(bytes.count - position, pageEnd - start)
                files[inode, default: File(durable: Data())].pending.append(
                    .bytes(offset: start, bytes.subdata(in: position..<(position + length))))
                position += length
            }
        case .truncate(let path, let length):
            guard let name = relative(path) else { return }
            let inode = inodeCreating(name)
            files[inode, default: File(durable: Data())].pending.append(.truncate(Int(length)))
        case .synchronize(let path):
            if let synchronized = directoryName(path) {
                // Only this directory's entries become durable, in the order they changed.
                var remaining: [NameChange] = []
                for change in pendingNames {
                    guard Self.parent(of: change.name) == synchronized else {
                        remaining.append(change)
                        continue
                    }
                    switch change {
                    case .link(let name, let inode): durableNames[name] = inode
                    case .unlink(let name): durableNames[name] = nil
                    }
                }
                pendingNames = remaining
            } else if let name = relative(path), let inode = names[name], var file = files[inode] {
                file.durable = current(inode)
                file.pending = []
                files[inode] = file
            }
        case .rename(let from, let to):
            guard let source = relative(from), let target = relative(to), let inode = names[source] else {
                return
            }
            names[source] = nil
            names[target] = inode
            pendingNames.append(.unlink(source))
            pendingNames.append(.link(target, inode))
        case .unlink(let path):
            guard let name = relative(path), names[name] != nil else { return }
            names[name] = nil
            pendingNames.append(.unlink(name))
        case .note:
            break
        }
    }

    /// The relative name of the directory at `path` ("" for the store's own), or `nil` when it is not one.
    private func directoryName(_ path: String) -> String? {
        let trimmed = path.hasSuffix("/.") ? String(path.dropLast(2)) : path
        if trimmed == directory { return "" }
        guard let name = relative(trimmed), subdirectories.contains(name) else { return nil }
        return name
    }

    /// The directory a relative name is in ("" for the store's own).
    private static func parent(of name: String) -> String {
        guard let slash = name.lastIndex(of: "/") else { return "" }
        return String(name[..<slash])
    }

    private mutating func inodeCreating(_ name: String) -> Int {
        if let inode = names[name] { return inode }
        let inode = newInode()
        files[inode] = File(durable: Data())
        names[name] = inode
        pendingNames.append(.link(name, inode))
        return inode
    }

    /// How much is still volatile: name changes, and unsynchronized page writes per file.
    package var volatileOperations: Int {
        pendingNames.count + files.values.reduce(0) { $0 + $1.pending.count }
    }

    /// The crash states at this point: nothing volatile kept, everything kept (what a process kill leaves),
    /// every prefix of each file's pending pages, and `randomSubsets` random choices of name changes and
    /// pages. Each state is relative path → bytes.
    package func crashStates(randomSubsets: Int, using generator: inout SystemRandomNumberGenerator)
        -> [[String: Data]]
    {
        var choices: [(names: Int, keep: [Int: [Bool]])] = []
        let pendingInodes = files.filter { !$0.value.pending.isEmpty }.keys.sorted()
        func all(_ value: Bool) -> [Int: [Bool]] {
            Dictionary(
                uniqueKeysWithValues: pendingInodes.map {
                    ($0, Array(repeating: value, count: files[$0]!.pending.count))
                })
        }
        choices.append((0, all(false)))
        choices.append((pendingNames.count, all(true)))
        for inode in pendingInodes {
            let count = files[inode]!.pending.count
            for prefix in stride(from: 1, to: count, by: max(1, count / 8)) {
                var keep = all(true)
                keep[inode] = (0..<count).map { $0 < prefix }
                choices.append((pendingNames.count, keep))
            }
        }
        for _ in 0..<randomSubsets where volatileOperations > 0 {
            var keep: [Int: [Bool]] = [:]
            for inode in pendingInodes {
                keep[inode] = (0..<files[inode]!.pending.count).map { _ in Bool.random(using: &generator) }
            }
            choices.append((Int.random(in: 0...pendingNames.count, using: &generator), keep))
        }
        return choices.map { state(namesKept: $0.names, pagesKept: $0.keep) }
    }

    private func state(namesKept: Int, pagesKept: [Int: [Bool]]) -> [String: Data] {
        var visible = durableNames
        for change in pendingNames.prefix(namesKept) {
            switch change {
            case .link(let name, let inode): visible[name] = inode
            case .unlink(let name): visible[name] = nil
            }
        }
        var result: [String: Data] = [:]
        for (name, inode) in visible {
            guard let file = files[inode] else { continue }
            let kept = zip(file.pending, pagesKept[inode] ?? []).filter(\.1).map(\.0)
            result[name] = Self.apply(kept, to: file.durable)
        }
        return result
    }
}
