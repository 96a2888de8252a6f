import DataStoreCore

/// Assertions that throw ``ConformanceFailure`` naming the running check, with no test framework.
struct Expect: Sendable {
    let check: ConformanceCase

    func failure(expected: String, observed: String) -> ConformanceFailure {
        ConformanceFailure(
            check: check, requirement: check.requirement, expected: expected, observed: observed)
    }

    /// Fails unless `observed == expected`.
    func equal<T: Equatable>(_ observed: T, _ expected: T, _ what: String) throws(ConformanceFailure) {
        guard observed == expected else {
            throw failure(
                expected: "\(what): \(ConformanceFormat.describe(expected))",
                observed: ConformanceFormat.describe(observed))
        }
    }

    /// Fails unless `condition` holds.
    func that(_ condition: Bool, _ expected: String, observed: @autoclosure () -> String)
        throws(ConformanceFailure)
    {
        guard condition else { throw failure(expected: expected, observed: observed()) }
    }

    /// Fails unless `body` throws a `DataStoreError` that `matches` accepts.
    func error(
        _ expected: String, matching matches: (DataStoreError) -> Bool, in body: () throws -> Void
    ) throws(ConformanceFailure) {
        do {
            try body()
        } catch let error as DataStoreError {
            guard matches(error) else { throw failure(expected: expected, observed: "threw \(error)") }
            return
        } catch {
            throw failure(
                expected: expected, observed: "threw a \(type(of: error)), not a DataStoreError: \(error)")
        }
        throw failure(expected: expected, observed: "no error was thrown")
    }
}
