import DataStoreCore
import Foundation

/// Deleting history, expiry, and erasing.
enum DeletionChecks {
    /// Six saves, then history deleted through the third: returns the tokens.
    static func trimmed<S>(_ h: Harness<S>) throws -> [S.Token] {
        let tokens = try h.saveItems((0..<6).map { "n\($0)" })
        try h.store.deleteHistory(HistoryDescriptor(predicate: HistoryPredicates.through(tokens[2])))
        return tokens
    }

    static func isExpired(_ error: DataStoreError, store: String) -> Bool {
        error.code == .historyTokenExpired && error.tokenExpiry == .historyDeleted && error.store == store
    }

    static func deletedHistoryExpiresOlderTokens<S>(_ h: Harness<S>) throws {
        let tokens = try trimmed(h)
        for old in tokens.prefix(2) {
            try h.expect.error(
                "historyTokenExpired naming '\(h.store.identifier)' for \(old)",
                matching: { isExpired($0, store: h.store.identifier) },
                in: {
                    _ = try h.history(HistoryDescriptor(predicate: HistoryPredicates.after(old)))
                })
        }
    }

    static func expiryCheckedBeforeAnyRead<S>(_ h: Harness<S>) throws {
        let tokens = try trimmed(h)
        // Every transaction has no author, so evaluating `author!` on any of them throws. A store that reads
        // before validating reports that instead of the expiry.
        let tokenKeyPath = S.HistoryType.keyPaths.token
        let authorKeyPath = S.HistoryType.keyPaths.author
        let old = tokens[0]
        let predicate = Predicate<S.HistoryType> { transaction in
            PredicateExpressions.build_Conjunction(
                lhs: PredicateExpressions.build_Comparison(
                    lhs: PredicateExpressions.build_KeyPath(root: transaction, keyPath: tokenKeyPath),
                    rhs: PredicateExpressions.build_Arg(old), op: .greaterThan),
                rhs: PredicateExpressions.build_Equal(
                    lhs: PredicateExpressions.build_ForcedUnwrap(
                        PredicateExpressions.build_KeyPath(root: transaction, keyPath: authorKeyPath)),
                    rhs: PredicateExpressions.build_Arg("nobody")))
        }
        try h.expect.error(
            "historyTokenExpired before any transaction is evaluated",
            matching: { isExpired($0, store: h.store.identifier) },
            in: {
                _ = try h.history(HistoryDescriptor(predicate: predicate))
            })
    }

    static func tokenAtTheCutStillWorks<S>(_ h: Harness<S>) throws {
        let tokens = try trimmed(h)
        let afterCut = try h.history(HistoryDescriptor(predicate: HistoryPredicates.after(tokens[2])))
        try h.expect.equal(afterCut.map(\.token), Array(tokens[3...]), "the tokens after the cut")
        let afterNewer = try h.history(HistoryDescriptor(predicate: HistoryPredicates.after(tokens[4])))
        try h.expect.equal(afterNewer.map(\.token), [tokens[5]], "the tokens after a newer token")
        try h.expect.equal(try h.history().map(\.token), Array(tokens[3...]), "the retained history")
    }

    static func deleteHistoryIgnoresFetchLimit<S>(_ h: Harness<S>) throws {
        let tokens = try h.saveItems((0..<6).map { "n\($0)" })
        try h.store.deleteHistory(
            HistoryDescriptor(predicate: HistoryPredicates.through(tokens[2]), fetchLimit: 1))
        try h.expect.equal(
            try h.history().map(\.token), Array(tokens[3...]),
            "the retained history after deleting the first three with fetchLimit 1")
    }

    static func eraseStartsANewEpoch<S>(_ h: Harness<S>) throws {
        let old = try h.saveItems(["a", "b"])
        try h.store.erase()
        try h.expect.equal(try h.items().count, 0, "items after erase")
        try h.expect.equal(try h.history().count, 0, "transactions after erase")
        try h.expect.error(
            "historyTokenExpired(reason: .storeErasedOrRecreated) for a token from before erase",
            matching: {
                $0.isFromErasedOrRecreatedStore
            },
            in: {
                _ = try h.history(HistoryDescriptor(predicate: HistoryPredicates.after(old[0])))
            })
        let fresh = try h.saveItems(["c"])[0]
        try h.expect.that(
            fresh.epoch != old[0].epoch, "a new epoch after erase", observed: "epoch \(fresh.epoch) again")
    }
}
