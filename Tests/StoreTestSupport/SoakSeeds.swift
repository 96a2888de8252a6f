import Foundation

/// The seeds a random scenario test runs: `quick` of them in `swift test`, ten times as many with
/// `DATASTORE_SOAK=1`, a fifth (at least 4) under a sanitizer (``TestScale``); from `DATASTORE_SOAK_FROM` on (0
/// by default), so that a longer soak can go on past the seeds already run
/// (`DATASTORE_SOAK=1 DATASTORE_SOAK_FROM=600 swift test --filter …`).
public enum SoakSeeds {
    /// The seeds to run, for a test that runs `quick` seeds in `swift test`.
    public static func range(quick: Int) -> Range<Int> {
        let environment = ProcessInfo.processInfo.environment
        let count =
            environment["DATASTORE_SOAK"] != nil
            ? quick * 10 : TestScale.rounds(quick, underSanitizer: max(quick / 5, 4))
        let first = environment["DATASTORE_SOAK_FROM"].flatMap { Int($0) } ?? 0
        return first..<first + count
    }
}
