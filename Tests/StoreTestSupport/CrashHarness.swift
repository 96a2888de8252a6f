import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The kill -9 test, shared by the file backends: a child commits saves in a loop and acknowledges each
/// one on its standard output; the harness kills it at random moments and checks the store after each kill.
public struct CrashHarness: Sendable {
    /// What the child acknowledged before it was killed: one sequence number per acknowledged save.
    public struct Round: Sendable {
        /// The round's number.
        public var index: Int
        /// The sequences acknowledged in this round, in order.
        public var acknowledged: [Int64]
    }

    /// The helper arguments that start a writer loop on the store.
    public var writerArguments: [String]
    /// How many times to kill the writer.
    public var rounds: Int

    /// Creates a harness.
    public init(writerArguments: [String], rounds: Int = 30) {
        self.writerArguments = writerArguments
        self.rounds = rounds
    }

    /// Runs the rounds. After each kill, `verify` reopens the store and checks it against every sequence
    /// acknowledged so far; it throws (or records issues) when a rule is broken.
    ///
    /// It blocks the calling thread while it waits for the writer; see ``ChildProcess/waitForExit(timeout:)``.
    public func run(seed: UInt64, verify: (Round, _ allAcknowledged: [Int64]) throws -> Void) throws {
        struct HarnessFailure: Error, CustomStringConvertible {
            var description: String
        }
        var random = SplitMix64(seed: seed)
        var all: [Int64] = []
        for index in 0..<rounds {
            let child = try ChildProcess(writerArguments)
            // Let it acknowledge a random number of saves (sometimes none), then kill it at once, mid-save
            // more often than not.
            let target = Int.random(in: 0...12, using: &random)
            _ = child.waitForLines(target + 1, timeout: .seconds(30))  // the first line is "READY"
            if Bool.random(using: &random) {
                usleep(useconds_t(Int.random(in: 0...3_000, using: &random)))
            }
            child.kill9()
            child.waitForExit()
            // A child that stopped on its own (an error) would make every round trivially pass.
            guard child.wasKilledBySignal, child.output.first == "READY" else {
                throw HarnessFailure(
                    description:
                        "round \(index): the writer was not running when killed; it printed \(child.output)")
            }
            let acknowledged = child.output.compactMap { line -> Int64? in
                guard line.hasPrefix("ACK ") else { return nil }
                return Int64(line.dropFirst(4))
            }
            all += acknowledged
            try verify(Round(index: index, acknowledged: acknowledged), all)
        }
        guard all.count >= rounds else {
            throw HarnessFailure(description: "only \(all.count) saves were acknowledged in \(rounds) rounds")
        }
    }
}

/// A small deterministic generator.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    var state: UInt64
    /// Starts from `seed`.
    public init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    /// The next value.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
