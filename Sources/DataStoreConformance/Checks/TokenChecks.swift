import DataStoreCore
import Foundation

/// Token ordering, coding, and the queries that take tokens.
enum TokenChecks {
    static func tokensStrictlyIncrease<S>(_ h: Harness<S>) throws {
        let tokens = try h.saveItems((0..<6).map { "n\($0)" })
        for (earlier, later) in zip(tokens, tokens.dropFirst()) {
            try h.expect.that(
                earlier < later && !(later < earlier) && earlier != later, "each token before the next",
                observed: "\(earlier) and \(later)")
        }
    }

    static func tokensRoundTripThroughCodable<S>(_ h: Harness<S>) throws {
        // Sorted keys: JSONEncoder's key order is otherwise not stable between two encodes.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for token in try h.saveItems(["a", "b"]) {
            let data = try encoder.encode(token)
            let decoded = try JSONDecoder().decode(S.Token.self, from: data)
            try h.expect.equal(decoded, token, "the token after a JSON round trip")
            try h.expect.equal(decoded.hashValue, token.hashValue, "the round-tripped token's hash")
            let again = try encoder.encode(decoded)
            try h.expect.equal(
                String(decoding: again, as: UTF8.self), String(decoding: data, as: UTF8.self),
                "the re-encoded JSON")
        }
    }

    static func saveReturnsTheTransactionToken<S>(_ h: Harness<S>) throws {
        let returned = try h.saveItems(["a", "b", "c"])
        // Observed: what the saves returned; expected: the tokens of the transactions they created.
        try h.expect.equal(
            returned, try h.history().map(\.token), "the tokens of the three transactions the saves created")
    }

    static func tokenAfterSelectsLaterTransactions<S>(_ h: Harness<S>) throws {
        let tokens = try h.saveItems((0..<8).map { "n\($0)" })
        for (index, token) in tokens.enumerated() {
            let after = try h.history(HistoryDescriptor(predicate: HistoryPredicates.after(token)))
            try h.expect.equal(
                after.map(\.token), Array(tokens[(index + 1)...]),
                "the tokens after the token of save \(index + 1) of 8 (\(token))")
        }
    }

    static func tokenAfterNewestIsEmpty<S>(_ h: Harness<S>) throws {
        let tokens = try h.saveItems(["a", "b"])
        let after = try h.history(HistoryDescriptor(predicate: HistoryPredicates.after(tokens[1])))
        try h.expect.equal(after.count, 0, "transactions after the newest token")
    }

    static func historyFetchLimitHonoured<S>(_ h: Harness<S>) throws {
        let tokens = try h.saveItems((0..<6).map { "n\($0)" })
        try h.expect.equal(
            try h.history(HistoryDescriptor(fetchLimit: 3)).map(\.token), Array(tokens.prefix(3)),
            "fetchLimit 3")
        try h.expect.equal(
            try h.history(HistoryDescriptor(fetchLimit: 1)).map(\.token), [tokens[0]], "fetchLimit 1")
        try h.expect.equal(
            try h.history(HistoryDescriptor(fetchLimit: 0)).count, 0, "the count with fetchLimit 0")
        let afterSecond = HistoryDescriptor<S.HistoryType>(
            predicate: HistoryPredicates.after(tokens[1]), fetchLimit: 2)
        try h.expect.equal(
            try h.history(afterSecond).map(\.token), Array(tokens[2..<4]), "fetchLimit 2 after token 1")
    }

    static func historySortByReverse<S>(_ h: Harness<S>) throws {
        let tokens = try h.saveItems((0..<5).map { "n\($0)" })
        let descriptor = HistoryDescriptor<S.HistoryType>(
            sortBy: [
                SortDescriptor(\S.HistoryType.timestamp, order: .reverse),
                SortDescriptor(\S.HistoryType.transactionIdentifier, order: .reverse),
            ],
            fetchLimit: 3)
        try h.expect.equal(
            try h.history(descriptor).map(\.token), Array(tokens.reversed().prefix(3)),
            "the newest three, newest first")
    }

    static func historyAuthorPredicate<S>(_ h: Harness<S>) throws {
        for index in 0..<9 {
            try h.save(inserted: [h.item("n\(index)")], author: ["app", "widget", "sync"][index % 3])
        }
        let all = try h.history()
        let widget = try h.history(HistoryDescriptor(predicate: HistoryPredicates.author("widget")))
        try h.expect.equal(
            widget.map(\.token), all.filter { $0.author == "widget" }.map(\.token),
            "the widget's transactions")
        let after = try h.history(
            HistoryDescriptor(predicate: HistoryPredicates.after(all[3].token, author: "widget")))
        try h.expect.equal(
            after.map(\.token), all[4...].filter { $0.author == "widget" }.map(\.token),
            "the widget's transactions after token 3")
    }

    static func historyTimestampPredicate<S>(_ h: Harness<S>) throws {
        _ = try h.saveItems((0..<8).map { "n\($0)" })
        let all = try h.history()
        let since = all[4].timestamp
        let selected = try h.history(
            HistoryDescriptor(predicate: HistoryPredicates.timestamp(atLeast: since)))
        try h.expect.equal(
            selected.map(\.token), all.filter { $0.timestamp >= since }.map(\.token),
            "transactions at or after a timestamp")
    }

    static func malformedTokenRejected<S>(_ h: Harness<S>) throws {
        let token = try h.saveItems(["a"])[0]
        let valid = String(decoding: try JSONEncoder().encode(token), as: UTF8.self)
        for json in [
            "", "{", "[]", "{}", "null", String(valid.dropLast()),
            valid.replacingOccurrences(of: ":", with: ":["),
        ] {
            try h.expect.error(
                "malformedHistoryToken for \(json.debugDescription)",
                matching: { if case .malformedHistoryToken = $0 { return true } else { return false } },
                in: {
                    _ = try HistoryTokenCoding.decode(S.Token.self, fromJSON: Data(json.utf8))
                })
        }
    }

    static func foreignStoreTokenRejected<S>(_ h: Harness<S>) throws {
        let token = try h.saveItems(["a", "b"])[0]
        let foreign = S.Token(storeIdentifier: "another-store", epoch: token.epoch, sequence: token.sequence)
        try h.expect.error(
            "historyTokenFromAnotherStore",
            matching: { if case .historyTokenFromAnotherStore = $0 { return true } else { return false } },
            in: {
                _ = try h.history(HistoryDescriptor(predicate: HistoryPredicates.after(foreign)))
            })
    }

    static func foreignEpochTokenRejected<S>(_ h: Harness<S>) throws {
        let token = try h.saveItems(["a", "b"])[0]
        let foreign = S.Token(storeIdentifier: token.storeIdentifier, epoch: UUID(), sequence: token.sequence)
        try h.expect.error(
            "historyTokenExpired(reason: .storeErasedOrRecreated)",
            matching: {
                $0.isFromErasedOrRecreatedStore
            },
            in: {
                _ = try h.history(HistoryDescriptor(predicate: HistoryPredicates.after(foreign)))
            })
    }

    static func tokenBeyondHistoryRejected<S>(_ h: Harness<S>) throws {
        let token = try h.saveItems(["a", "b"])[1]
        let ahead = S.Token(
            storeIdentifier: token.storeIdentifier, epoch: token.epoch, sequence: token.sequence + 5)
        try h.expect.error(
            "historyTokenBeyondHistory",
            matching: { if case .historyTokenBeyondHistory = $0 { return true } else { return false } },
            in: {
                _ = try h.history(HistoryDescriptor(predicate: HistoryPredicates.after(ahead)))
            })
    }
}
