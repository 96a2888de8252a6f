import Foundation

/// Timings of one side of a comparison: median, min and max seconds over the repetitions.
struct Timing: Sendable {
    var samples: [Double]

    var median: Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count.isMultiple(of: 2)
            ? (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2 : sorted[sorted.count / 2]
    }
    var min: Double { samples.min() ?? .nan }
    var max: Double { samples.max() ?? .nan }
}

/// Runs closures and times them on a monotonic clock.
enum Measure {
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Times `candidate` and `baseline` alternately, A B A B, so that drift on a shared machine affects both
    /// alike. `prepare` runs untimed before each timed run (for example to reset state).
    static func pair(
        repetitions: Int, prepare: () throws -> Void = {}, candidate: () throws -> Void,
        baseline: () throws -> Void
    ) rethrows -> (candidate: Timing, baseline: Timing) {
        var a: [Double] = []
        var b: [Double] = []
        for _ in 0..<repetitions {
            try prepare()
            a.append(try seconds(candidate))
            try prepare()
            b.append(try seconds(baseline))
        }
        return (Timing(samples: a), Timing(samples: b))
    }

    /// Like ``pair(repetitions:prepare:candidate:baseline:)``, but both sides of each repetition get the same
    /// input, made fresh (untimed) for every repetition: candidate and baseline then do identical work.
    static func pair<Input>(
        repetitions: Int, input: () throws -> Input, candidate: (Input) throws -> Void,
        baseline: (Input) throws -> Void
    ) rethrows -> (candidate: Timing, baseline: Timing) {
        var a: [Double] = []
        var b: [Double] = []
        for _ in 0..<repetitions {
            let value = try input()
            a.append(try seconds { try candidate(value) })
            b.append(try seconds { try baseline(value) })
        }
        return (Timing(samples: a), Timing(samples: b))
    }

    /// Times `body` alone.
    static func repeated(_ repetitions: Int, prepare: () throws -> Void = {}, _ body: () throws -> Void)
        rethrows
        -> Timing
    {
        var samples: [Double] = []
        for _ in 0..<repetitions {
            try prepare()
            samples.append(try seconds(body))
        }
        return Timing(samples: samples)
    }
}
