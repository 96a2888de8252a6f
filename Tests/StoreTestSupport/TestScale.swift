import Foundation

/// How much of a long test to run under a sanitizer. `Scripts/sanitize` sets `DATASTORE_SANITIZER` (`thread` or
/// `address`). A sanitizer slows a test three to fifteen times, and what it looks for (a race, a use after free,
/// an overflow) shows in the code a test runs, not in how many times the test runs it; the rounds of a long loop
/// find rare interleavings and states, which `swift test` without a sanitizer (run by `.ci/run` in the same pass)
/// covers in full.
public enum TestScale {
    /// Whether the tests run under a sanitizer.
    public static let underSanitizer = ProcessInfo.processInfo.environment["DATASTORE_SANITIZER"] != nil

    /// `count` normally; `reduced` under a sanitizer.
    public static func rounds(_ count: Int, underSanitizer reduced: Int) -> Int {
        underSanitizer ? reduced : count
    }
}
