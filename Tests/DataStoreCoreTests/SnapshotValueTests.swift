import DataStoreCore
import Foundation
import Testing

@Suite struct SnapshotValueTests {
    static let id = PersistentIdentifier(storeIdentifier: "trips", entityName: "Trip", primaryKey: "k1")

    /// The documented encoding, case by case: a one-key object named after the case, or `null`.
    @Test(arguments: [
        (SnapshotValue.string("Paris"), #"{"string":"Paris"}"#),
        (.integer(-42), #"{"integer":-42}"#),
        (.double(1.5), #"{"double":1.5}"#),
        (.double(.infinity), #"{"double":"inf"}"#),
        (.bool(true), #"{"bool":true}"#),
        (.date(Date(timeIntervalSinceReferenceDate: 12.25)), #"{"date":12.25}"#),
        (.data(Data([1, 2, 3])), #"{"data":"AQID"}"#),
        (
            .uuid(UUID(uuidString: "5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90")!),
            #"{"uuid":"5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90"}"#
        ),
        (.identifier(id), #"{"identifier":{"entity":"Trip","key":"k1","store":"trips"}}"#),
        (.array([.integer(1), .null]), #"{"array":[{"integer":1},null]}"#),
        (.null, "null"),
    ])
    func encodesToTheDocumentedForm(value: SnapshotValue, json: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(String(decoding: try encoder.encode(value), as: UTF8.self) == json)
        #expect(try JSONDecoder().decode(SnapshotValue.self, from: Data(json.utf8)) == value)
    }

    @Test func datesAndDoublesRoundTripExactly() throws {
        for seconds in [0.1, 1e-9, 7.123456789012345e8, -3.3] {
            let value = SnapshotValue.date(Date(timeIntervalSinceReferenceDate: seconds))
            #expect(try JSONDecoder().decode(SnapshotValue.self, from: JSONEncoder().encode(value)) == value)
        }
        let nan = try JSONDecoder().decode(
            SnapshotValue.self, from: JSONEncoder().encode(SnapshotValue.double(.nan)))
        guard case .double(let decoded) = nan else {
            Issue.record("not a double")
            return
        }
        #expect(decoded.isNaN)
    }

    @Test(arguments: [
        #"{}"#, #"{"string":"a","integer":1}"#, #"{"colour":"red"}"#, #"{"double":"huge"}"#,
        #"{"integer":"1"}"#,
    ])
    func rejectsMalformedValues(json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SnapshotValue.self, from: Data(json.utf8))
        }
    }

    @Test func conversionsRejectTheWrongKind() {
        #expect(Int(snapshotValue: .string("1")) == nil)
        #expect(Int(snapshotValue: .integer(Int64.max)) == Int.max)
        #expect(String?(snapshotValue: .null) == .some(nil))
        #expect(String?(snapshotValue: .integer(1)) == nil)
        #expect([Int](snapshotValue: .array([.integer(1), .string("x")])) == nil)
        #expect(Double(snapshotValue: .integer(3)) == 3)
        #expect(SnapshotValue.integer(2).compare(to: .double(2.5)) == .orderedAscending)
        #expect(SnapshotValue.string("a").compare(to: .integer(1)) == nil)
        #expect(SnapshotValue.null.compare(to: .string("")) == .orderedAscending)
    }

    @Test func changedAttributesTreatsMissingAsNull() {
        let before = DataStoreSnapshot(persistentIdentifier: Self.id, values: ["a": .integer(1), "b": .null])
        let after = DataStoreSnapshot(
            persistentIdentifier: Self.id, values: ["a": .integer(2), "c": .string("x")])
        #expect(before.changedAttributes(to: after) == ["a", "c"])
        #expect(before.changedAttributes(to: before) == [])
        // The other way round: a value the newer snapshot lacks is a change to `nil`.
        #expect(after.changedAttributes(to: before) == ["a", "c"])
        #expect(
            before.changedAttributes(to: DataStoreSnapshot(persistentIdentifier: Self.id, values: [:])) == [
                "a"
            ])
    }
}
