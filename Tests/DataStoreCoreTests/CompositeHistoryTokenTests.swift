import DataStoreCore
import DataStoreModels
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
        #expect(text == "\"v2:composite:a:\(Self.epochA.uuidString):3:b:\(Self.epochB.uuidString):4\"")
        #expect(try JSONDecoder().decode(CompositeHistoryToken.self, from: data) == Self.token(3, 4))
        #expect(try encoder.encode(Self.token(3, 4)) == data)
    }

    @Test func equalTokensEncodeToEqualBytesWithAnyEncoder() throws {
        var generator = SystemRandomNumberGenerator()
        let names = ["trips", "people/2026", "a:b", "café", "%20", "x y"]
        let epochs = (0..<3).map { _ in UUID() }
        let encoders = [
            JSONEncoder(),
            {
                let e = JSONEncoder()
                e.outputFormatting = .sortedKeys
                return e
            }(),
            {
                let e = JSONEncoder()
                e.outputFormatting = [.withoutEscapingSlashes, .prettyPrinted]
                return e
            }(),
        ]
        for _ in 0..<1_000 {
            var components: [String: CompositeHistoryToken.Component] = [:]
            for name in names.shuffled(using: &generator).prefix(Int.random(in: 0...4, using: &generator)) {
                components[name] = .init(
                    epoch: epochs.randomElement(using: &generator)!,
                    sequence: Int64.random(in: 0...9, using: &generator))
            }
            let token = CompositeHistoryToken(components: components)
            let bytes = try encoders.map { try $0.encode(token) }
            #expect(Set(bytes).count == 1, "\(bytes.map { String(decoding: $0, as: UTF8.self) })")
            #expect(try JSONDecoder().decode(CompositeHistoryToken.self, from: bytes[0]) == token)
        }
    }

    @Test(arguments: [
        #""v2:composite:a:5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90:1:a:5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90:2""#,
        #""v2:composite:a:5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90""#,
        #""v2:composite:a:nope:1""#,
        #""v3:composite:""#,
        #""v2:memory:a:5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90:1""#,
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

/// The composite token's partial order obeys the laws `<` must obey, and a zero component means absent.
@Suite struct CompositeHistoryTokenLawTests {
    static let epochs = [UUID(), UUID()]

    static func random(_ generator: inout some RandomNumberGenerator) -> CompositeHistoryToken {
        var components: [String: CompositeHistoryToken.Component] = [:]
        for store in ["a", "b", "c"] where Bool.random(using: &generator) {
            components[store] = .init(
                epoch: epochs[Int.random(in: 0..<4, using: &generator) == 0 ? 1 : 0],
                sequence: Int64.random(in: 0...3, using: &generator))
        }
        return CompositeHistoryToken(components: components)
    }

    @Test func aZeroComponentEqualsAnAbsentOne() {
        let zero = CompositeHistoryToken(components: ["trips": .init(epoch: UUID(), sequence: 0)])
        #expect(zero == CompositeHistoryToken())
        #expect(zero.hashValue == CompositeHistoryToken().hashValue)
        #expect(Set([zero, CompositeHistoryToken()]).count == 1)
    }

    @Test func theOrderIsAStrictPartialOrder() {
        var generator = SystemRandomNumberGenerator()
        let tokens = (0..<60).map { _ in Self.random(&generator) }
        for a in tokens {
            #expect(!(a < a), "irreflexive: \(a)")
            #expect(a <= a, "<= is reflexive: \(a)")
            for b in tokens {
                if a < b { #expect(!(b < a), "asymmetric: \(a) \(b)") }
                if a <= b && b <= a { #expect(a == b, "antisymmetric: \(a) \(b)") }
                if a == b { #expect(a.hashValue == b.hashValue, "hash follows ==: \(a) \(b)") }
                for c in tokens where a < b && b < c {
                    #expect(a < c, "transitive: \(a) \(b) \(c)")
                }
            }
        }
    }
}
