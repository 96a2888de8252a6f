public import Foundation

/// Common history predicates for a transaction type, built from its own ``HistoryKeyPaths``.
///
/// Use these in generic code. There `#Predicate { $0.token > token }` would build its key path through the
/// protocol requirement, which never equals the store's key path, so the store could neither seek nor
/// validate the token.
public enum HistoryPredicates<Transaction: HistoryTransaction> {
    /// `$0.token > token`: the transactions after `token`.
    public static func after(_ token: Transaction.Token) -> Predicate<Transaction> {
        let keyPath = Transaction.keyPaths.token
        return Predicate { transaction in
            PredicateExpressions.build_Comparison(
                lhs: PredicateExpressions.build_KeyPath(root: transaction, keyPath: keyPath),
                rhs: PredicateExpressions.build_Arg(token), op: .greaterThan)
        }
    }

    /// `$0.token <= token`: the transactions up to and including `token`.
    public static func through(_ token: Transaction.Token) -> Predicate<Transaction> {
        let keyPath = Transaction.keyPaths.token
        return Predicate { transaction in
            PredicateExpressions.build_Comparison(
                lhs: PredicateExpressions.build_KeyPath(root: transaction, keyPath: keyPath),
                rhs: PredicateExpressions.build_Arg(token), op: .lessThanOrEqual)
        }
    }

    /// `$0.token > lower && $0.token <= upper`: a range of history a store can seek to and stop at.
    public static func between(after lower: Transaction.Token, through upper: Transaction.Token)
        -> Predicate<Transaction>
    {
        let keyPath = Transaction.keyPaths.token
        return Predicate { transaction in
            PredicateExpressions.build_Conjunction(
                lhs: PredicateExpressions.build_Comparison(
                    lhs: PredicateExpressions.build_KeyPath(root: transaction, keyPath: keyPath),
                    rhs: PredicateExpressions.build_Arg(lower), op: .greaterThan),
                rhs: PredicateExpressions.build_Comparison(
                    lhs: PredicateExpressions.build_KeyPath(root: transaction, keyPath: keyPath),
                    rhs: PredicateExpressions.build_Arg(upper), op: .lessThanOrEqual))
        }
    }

    /// `$0.token > token && $0.author == author`.
    public static func after(_ token: Transaction.Token, author: String) -> Predicate<Transaction> {
        let tokenKeyPath = Transaction.keyPaths.token
        let authorKeyPath = Transaction.keyPaths.author
        let author: String? = author
        return Predicate { transaction in
            PredicateExpressions.build_Conjunction(
                lhs: PredicateExpressions.build_Comparison(
                    lhs: PredicateExpressions.build_KeyPath(root: transaction, keyPath: tokenKeyPath),
                    rhs: PredicateExpressions.build_Arg(token), op: .greaterThan),
                rhs: PredicateExpressions.build_Equal(
                    lhs: PredicateExpressions.build_KeyPath(root: transaction, keyPath: authorKeyPath),
                    rhs: PredicateExpressions.build_Arg(author)))
        }
    }

    /// `$0.author == author`.
    public static func author(_ author: String) -> Predicate<Transaction> {
        let keyPath = Transaction.keyPaths.author
        let author: String? = author
        return Predicate { transaction in
            PredicateExpressions.build_Equal(
                lhs: PredicateExpressions.build_KeyPath(root: transaction, keyPath: keyPath),
                rhs: PredicateExpressions.build_Arg(author))
        }
    }

    /// `$0.timestamp >= date`.
    public static func timestamp(atLeast date: Date) -> Predicate<Transaction> {
        let keyPath = Transaction.keyPaths.timestamp
        return Predicate { transaction in
            PredicateExpressions.build_Comparison(
                lhs: PredicateExpressions.build_KeyPath(root: transaction, keyPath: keyPath),
                rhs: PredicateExpressions.build_Arg(date), op: .greaterThanOrEqual)
        }
    }

    /// `$0.transactionIdentifier <= highest && identifiers.contains($0.transactionIdentifier)`: exactly the
    /// listed transactions, with an upper bound the store can seek by.
    public static func identifiers(_ identifiers: Set<Int64>) -> Predicate<Transaction> {
        let keyPath = Transaction.keyPaths.transactionIdentifier
        let highest = identifiers.max() ?? 0
        return Predicate { transaction in
            PredicateExpressions.build_Conjunction(
                lhs: PredicateExpressions.build_Comparison(
                    lhs: PredicateExpressions.build_KeyPath(root: transaction, keyPath: keyPath),
                    rhs: PredicateExpressions.build_Arg(highest), op: .lessThanOrEqual),
                rhs: PredicateExpressions.build_contains(
                    PredicateExpressions.build_Arg(identifiers),
                    PredicateExpressions.build_KeyPath(root: transaction, keyPath: keyPath)))
        }
    }
}
