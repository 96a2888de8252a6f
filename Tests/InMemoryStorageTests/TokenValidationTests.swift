import DataStoreCore
import Foundation
import InMemoryStorage
import Testing

@Suite struct TokenValidationTests {
    @Test func deleteHistoryExpiresOlderTokensOnly() throws {
        let store = try makeNoteStore()
        let tokens = try (1...10).map { try saveNote("n\($0)", to: store) }
        let cut = tokens[4]
        try store.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.token <= cut }))
        #expect(store.historyCount == 5)

        let older = tokens[2]
        #expect(
            throws: DataStoreError.historyTokenExpired(
                store: "notes", tokenSequence: 3, oldestValidSequence: 5)
        ) {
            try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > older }))
        }
        // The token at the cut and newer ones still work.
        let atCut = try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > cut }))
        #expect(atCut.map(\.token) == Array(tokens[5...]))
        let newer = tokens[7]
        #expect(
            try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > newer })).count == 2)
        // No token: everything retained.
        #expect(try store.fetchHistory(HistoryDescriptor()).map(\.token) == Array(tokens[5...]))
    }

    @Test func expiryIsCheckedBeforeAnythingIsRead() throws {
        let store = try makeNoteStore()
        let tokens = try (1...100).map { try saveNote("n\($0)", to: store) }
        let cut = tokens[49]
        try store.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.token <= cut }))
        let before = store.statistics
        let old = tokens[0]
        #expect(throws: DataStoreError.self) {
            try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > old }))
        }
        #expect(store.statistics == before)
    }

    @Test func tokensOfAnotherStoreOrEpochAreRejected() throws {
        let store = try makeNoteStore()
        let other = try makeNoteStore(name: "elsewhere")
        try saveNote("a", to: store)
        let foreign = try saveNote("b", to: other)
        #expect(throws: DataStoreError.historyTokenFromAnotherStore(store: "notes", tokenStore: "elsewhere"))
        {
            try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > foreign }))
        }

        // Another instance with the same name is another incarnation: a different epoch.
        let twin = try makeNoteStore()
        let twinToken = try saveNote("c", to: twin)
        #expect {
            try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > twinToken }))
        } throws: { error in
            guard let error = error as? DataStoreError else { return false }
            return error.isFromErasedOrRecreatedStore && error.store == "notes"
        }

        // Erasing draws a new epoch: the store's own old tokens stop matching.
        let beforeErase = try saveNote("d", to: store)
        try store.erase()
        #expect(store.modelCount == 0 && store.historyCount == 0)
        #expect(throws: DataStoreError.self) {
            try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > beforeErase }))
        }
    }

    @Test func aTokenAheadOfHistoryIsRejected() throws {
        let store = try makeNoteStore()
        let token = try saveNote("a", to: store)
        let forged = InMemoryHistoryToken(
            storeIdentifier: token.storeIdentifier, epoch: token.epoch, sequence: 99)
        #expect(
            throws: DataStoreError.historyTokenBeyondHistory(
                store: "notes", tokenSequence: 99, latestSequence: 1)
        ) {
            try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > forged }))
        }
    }

    @Test func tokensRoundTripThroughCompactVersionedJSON() throws {
        let store = try makeNoteStore()
        let token = try saveNote("a", to: store)
        let data = try JSONEncoder().encode(token)
        #expect(String(decoding: data, as: UTF8.self) == "\"v2:memory:notes:\(token.epoch.uuidString):1\"")
        #expect(try JSONDecoder().decode(InMemoryHistoryToken.self, from: data) == token)
        // The version-1 object that earlier releases wrote still decodes.
        let legacy = #"{"v":1,"kind":"memory","store":"notes","epoch":"\#(token.epoch.uuidString)","seq":1}"#
        #expect(try JSONDecoder().decode(InMemoryHistoryToken.self, from: Data(legacy.utf8)) == token)
    }

    /// Store identifiers are percent-encoded, byte by byte in UTF-8 with upper-case hex digits, as the tokens apps
    /// saved from earlier releases spell them.
    @Test func storeIdentifiersArePercentEncodedAsBefore() {
        #expect(HistoryTokenCoding.escape("notes-1_a.b~") == "notes-1_a.b~")
        #expect(HistoryTokenCoding.escape("my notes") == "my%20notes")
        #expect(HistoryTokenCoding.escape("nötes") == "n%C3%B6tes")
        #expect(HistoryTokenCoding.escape("a:b/c%") == "a%3Ab%2Fc%25")
        #expect(HistoryTokenCoding.escape("") == "")
    }

    /// `HistoryTokenCoding.jsonString(_:)` writes a store token without a JSONEncoder: the text must be the
    /// encoder's bytes, for identifiers that need escaping too, and decode to the same token.
    @Test(arguments: [
        "notes", "my notes", "trips/2026", "nötes", "a:b", "50%", "-_.~", "\"quoted\"", "tab\t",
    ])
    func aTokenStringIsWhatTheJSONEncoderWrites(store: String) throws {
        let token = InMemoryHistoryToken(storeIdentifier: store, epoch: UUID(), sequence: 42)
        let text = try HistoryTokenCoding.jsonString(token)
        #expect(text == String(decoding: try JSONEncoder().encode(token), as: UTF8.self))
        #expect(try HistoryTokenCoding.decode(InMemoryHistoryToken.self, fromJSON: Data(text.utf8)) == token)
    }

    @Test(arguments: [
        #"{"v":1,"kind":"memory","store":"notes","epoch":"not-a-uuid","seq":1}"#,
        #"{"v":2,"kind":"memory","store":"notes","epoch":"5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90","seq":1}"#,
        #"{"v":1,"kind":"jsonfile","store":"notes","epoch":"5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90","seq":1}"#,
        #"{"v":1,"kind":"memory","store":"notes","epoch":"5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90","seq":-4}"#,
        #"{"v":1,"kind":"memory","store":"","epoch":"5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90","seq":1}"#,
        #"{"v":1,"kind":"memory"}"#,
        #"{"v":1,"#,
        #"[]"#,
        "",
    ])
    func malformedTokenJSONThrowsTheTypedError(json: String) {
        #expect {
            try HistoryTokenCoding.decode(InMemoryHistoryToken.self, fromJSON: Data(json.utf8))
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .malformedHistoryToken else {
                return false
            }
            return error.reason?.isEmpty == false
        }
    }

    /// `HistoryTokenCoding.decode(_:fromJSON:)` reads a plain token string without a JSONDecoder: it must
    /// answer as the JSONDecoder does, the same token or a malformed-token error, whatever the string holds.
    @Test(arguments: [
        #""v2:memory:notes:5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90:7""#,
        #""v2:memory:my%20notes:5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90:0""#,
        #""v2:memory:notes:5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90:-1""#,
        #""v2:jsonfile:notes:5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90:7""#,
        #""v1:memory:notes:5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90:7""#,
        #""v2:memory::5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90:7""#,
        #""v2:memory:notes:not-a-uuid:7""#,
        #""v2:memory:notes:5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90:7:8""#,
        #""v2:memory:notes:5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90""#,
        #""v2:memory:notes:5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90:99999999999999999999""#,
        #" "v2:memory:notes:5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90:7" "#,
        #""v2:memory:no\u0074es:5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90:7""#,
        "\"v2:memory:no\ttes:5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90:7\"",
        "\"v2:memory:nötes:5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90:7\"",
        #""v2:memory:notes"x":5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90:7""#,
        #""""#, #"""#, #""v2""#,
    ])
    func aPlainTokenStringDecodesAsTheJSONDecoderDecodesIt(json: String) {
        func outcome(_ decode: () throws -> InMemoryHistoryToken) -> String {
            do {
                return "token \(try decode())"
            } catch let error as DataStoreError where error.code == .malformedHistoryToken {
                return "malformed"
            } catch {
                return "other error: \(error)"
            }
        }
        let data = Data(json.utf8)
        let decoded = outcome { try HistoryTokenCoding.decode(InMemoryHistoryToken.self, fromJSON: data) }
        let byDecoder = outcome { try JSONDecoder().decode(InMemoryHistoryToken.self, from: data) }
        // The JSONDecoder's own errors (invalid JSON) are what decode(_:fromJSON:) reports as malformed.
        #expect(decoded == (byDecoder.hasPrefix("other error") ? "malformed" : byDecoder), "\(json)")
    }
}
