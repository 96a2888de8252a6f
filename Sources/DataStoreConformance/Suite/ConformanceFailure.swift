/// A broken rule: which check, which requirement, what was expected and what was observed.
///
/// Thrown by every check, whatever test framework runs it, so the report reads the same everywhere.
public struct ConformanceFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The check that failed.
    public var check: ConformanceCase
    /// The rule, quoted from the protocol's "Implementation requirements".
    public var requirement: String
    /// What the rule expects.
    public var expected: String
    /// What the store did.
    public var observed: String

    /// Creates a failure.
    public init(check: ConformanceCase, requirement: String, expected: String, observed: String) {
        self.check = check
        self.requirement = requirement
        self.expected = expected
        self.observed = observed
    }

    /// A multi-line report naming the check, the rule, the expectation and the observation.
    public var description: String {
        """
        Conformance check '\(check.rawValue)' failed.
          Rule:     \(requirement)
          Expected: \(expected)
          Observed: \(observed)
        """
    }
}
