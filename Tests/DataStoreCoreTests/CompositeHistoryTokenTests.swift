import DataStoreCore
import Foundation
import Testing

@Suite struct CompositeHistoryTokenTests {
    static let epochA = UUID()
    static let epochB = UUID()

    static func token(_ a: Int64?, _ b: Int64?) -> CompositeHistoryToken {
        var components: [String: CompositeHistoryToken.Component] = [:]
        if let a { components["a"] = .init(epoch: epochA, sequence: a) }
        if let b { components["b"] = .init(epoch: epochB, sequence: b) }
        return CompositeHistoryToken(components: components)
    }

    @Test func orderIsStrictDominance() {
        #expect(Self.token(1, 1) < Self.token(1, 2))
        #expect(Self.token(1, 1) < Self.token(2, 2))
        #expect(!(Self.token(1, 2) < Self.token(2, 1)) && !(Self.token(2, 1) < Self.token(1, 2)))
        #expect(!(Self.token(1, 1) < Self.token(1, 1)))
        // A missing store counts as its beginning.
        #expect(Self.token(nil, 3) < Self.token(1, 3))
        #expect(Self.token(0, 3) == Self.token(0, 3))
        // `<=` is dominance too, not "not greater": incomparable tokens are not `<=`.
        #expect(!(Self.token(1, 2) <= Self.token(2, 1)))
        #expect(Self.token(1, 2) <= Self.token(1, 2) && Self.token(1, 2) >= Self.token(1, 1))
        // Different epochs are unordered.
        let other = CompositeHistoryToken(components: ["a": .init(epoch: UUID(), sequence: 9)])
        #expect(!(Self.token(1, nil) < other) && !(other < Self.token(1, nil)))
    }

    @Test func mergingTakesTheMaximumPerStore() {
        #expect(Self.token(3, 1).merging(Self.token(1, 4)) == Self.token(3, 4))
        #expect(Self.token(3, nil).merging(Self.token(nil, 2)) == Self.token(3, 2))
    }

    @Test func codableFormIsStableSortedAndVersioned() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(Self.token(3, 4))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix(#"{"kind":"composite","stores":[{"epoch":""#))
        #expect(text.hasSuffix(#""seq":4,"store":"b"}],"v":1}"#))
        #expect(try JSONDecoder().decode(CompositeHistoryToken.self, from: data) == Self.token(3, 4))
        #expect(try encoder.encode(Self.token(3, 4)) == data)
    }

    @Test(arguments: [
        #"{"v":1,"kind":"composite","stores":[{"store":"a","epoch":"5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90","seq":1},{"store":"a","epoch":"5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90","seq":2}]}"#,
        #"{"v":1,"kind":"composite","stores":[{"store":"a","epoch":"5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90","seq":-1}]}"#,
        #"{"v":1,"kind":"composite","stores":[{"store":"a","epoch":"nope","seq":1}]}"#,
        #"{"v":9,"kind":"composite","stores":[]}"#,
        #"{"v":1,"kind":"memory","stores":[]}"#,
        #"{"v":1,"kind":"composite","stores":{"a":1}}"#,
    ])
    func malformedCompositeTokensThrowTheTypedError(json: String) {
        #expect {
            try JSONDecoder().decode(CompositeHistoryToken.self, from: Data(json.utf8))
        } throws: { error in
            if case DataStoreError.malformedHistoryToken = error { return true }
            return false
        }
    }
}
