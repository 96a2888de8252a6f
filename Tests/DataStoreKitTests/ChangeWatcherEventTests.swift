import DataStoreKit

#if os(Linux)
    import Glibc
    import DataStoreKit
    import Testing

    /// How the change watcher reads inotify events.
    @Suite struct ChangeWatcherEventTests {
        /// One inotify event with `name` (padded to a multiple of 8 bytes, as the kernel pads it).
        static func event(mask: Int32, name: String = "") -> [UInt8] {
            var nameBytes = Array(name.utf8)
            if !nameBytes.isEmpty {
                nameBytes.append(0)
                while nameBytes.count % 8 != 0 { nameBytes.append(0) }
            }
            var header = inotify_event()
            header.wd = name.isEmpty ? -1 : 1
            header.mask = UInt32(mask)
            header.len = UInt32(nameBytes.count)
            return withUnsafeBytes(of: header) { Array($0) } + nameBytes
        }

        static func namesACommit(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBytes {
                ChangeWatcher.eventsNameACommit($0, isCommitFile: { $0 == "journal.jsonl" })
            }
        }

        @Test func aWriteToACommitFileCountsAndOtherFilesDoNot() {
            #expect(Self.namesACommit(Self.event(mask: IN_MODIFY, name: "journal.jsonl")))
            #expect(!Self.namesACommit(Self.event(mask: IN_MODIFY, name: "store.lock")))
            #expect(
                Self.namesACommit(
                    Self.event(mask: IN_MODIFY, name: "store.lock")
                        + Self.event(mask: IN_MOVED_TO, name: "journal.jsonl")))
        }

        /// When the kernel's queue overflows it drops events and says so with one nameless event: a commit may
        /// be among those dropped, so the watcher must wake its readers.
        @Test func aQueueOverflowCountsAsAChange() {
            #expect(Self.namesACommit(Self.event(mask: IN_Q_OVERFLOW)))
            #expect(
                Self.namesACommit(
                    Self.event(mask: IN_MODIFY, name: "store.lock") + Self.event(mask: IN_Q_OVERFLOW)))
        }
    }
#endif
