import DataStoreCore
import Foundation
import Testing

@testable import DataStoreKit

/// Issue 37, item 5: whole records after a hole that all belong to the write the hole is in (each record says
/// where its write began) are a torn tail, cut back; a record of a later write after a hole stays damage.
@Suite struct UnfinishedWriteFramingTests {
    /// A record naming the offset its write began at (`nil`: a record that does not say).
    func record(_ name: String, write: Int64?) -> Data {
        let field = write.map { #","write":\#($0)"# } ?? ""
        return RecordFraming.frame(Data(#"{"name":"\#(name)"\#(field)}"#.utf8))
    }

    let writeStart: RecordFraming.WriteStart = { payload in
        (try? JSONSerialization.jsonObject(with: payload) as? [String: Any])?["write"] as? Int64
    }

    /// `a`, then one write of `b`, `c` and `d` whose first page (here: all of `b`) never reached the disk.
    func journal(laterWrite: Bool = false) -> (bytes: Data, hole: Int64) {
        let first = record("a", write: nil)
        let start = Int64(first.count)
        let b = record("b", write: start)
        let c = record("c", write: start)
        let d = record("d", write: laterWrite ? start + Int64(b.count + c.count) : start)
        return (first + Data(count: b.count) + c + d + Data(count: 64), start)
    }

    @Test func recordsOfTheUnfinishedWriteAfterAHoleAreATornTail() throws {
        let (bytes, hole) = journal()
        let parsed = try RecordFraming.parse(
            bytes, startingAt: 0, path: "f", ending: .preallocated, writeStart: writeStart)
        #expect(parsed.records.count == 1)
        #expect(parsed.endOfValidData == hole)
        #expect(parsed.hasTornTail)
        // Without knowing the writes, the same bytes are damage, as before.
        #expect {
            try RecordFraming.parse(bytes, startingAt: 0, path: "f", ending: .preallocated)
        } throws: { ($0 as? DataStoreError)?.offset == hole }
    }

    @Test func aRecordOfALaterWriteAfterAHoleIsDamage() throws {
        let (bytes, hole) = journal(laterWrite: true)
        #expect {
            try RecordFraming.parse(
                bytes, startingAt: 0, path: "f", ending: .preallocated, writeStart: writeStart)
        } throws: {
            ($0 as? DataStoreError)?.code == .corruptStoreFile && ($0 as? DataStoreError)?.offset == hole
        }
    }

    @Test func recordsThatDoNotSayAreDamageAsBefore() throws {
        let first = record("a", write: nil)
        let bytes = first + Data(count: record("b", write: nil).count) + record("c", write: nil)
        #expect {
            try RecordFraming.parse(
                bytes, startingAt: 0, path: "f", ending: .preallocated, writeStart: writeStart)
        } throws: { ($0 as? DataStoreError)?.offset == Int64(first.count) }
    }
}
