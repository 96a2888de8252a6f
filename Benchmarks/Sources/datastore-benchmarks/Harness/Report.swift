import Foundation

/// Collects results, prints each as it arrives (a table row and a `METRIC` line) and the summary at the end.
final class Report {
    struct Row: Codable {
        var metric: String
        var value: Double
        var unit: String
        var target: String
        var met: Bool?
        var detail: String
    }

    private(set) var rows: [Row] = []
    let quick: Bool

    init(quick: Bool) {
        self.quick = quick
    }

    /// Records one figure. `target` describes the goal; `met` says whether it was reached (nil: no target).
    func metric(
        _ name: String, _ value: Double, _ unit: String, target: String = "", met: Bool? = nil,
        detail: String = ""
    ) {
        let row = Row(metric: name, value: value, unit: unit, target: target, met: met, detail: detail)
        rows.append(row)
        out("METRIC \(name) \(Self.format(value)) \(unit)")
        if !detail.isEmpty { out("  \(detail)") }
    }

    /// Records figures another process measured and printed already (see ``FreshProcess``).
    func adopt(_ measured: [Row]) {
        rows.append(contentsOf: measured)
    }

    /// Records a ratio with both sides' medians, mins and maxes.
    func ratio(
        _ name: String, candidate: Timing, baseline: Timing, atLeast target: Double, candidateLabel: String,
        baselineLabel: String
    ) {
        let value = baseline.median / candidate.median
        metric(
            name, value, "x", target: ">= \(Self.format(target))x", met: value >= target,
            detail:
                "\(candidateLabel): median \(Self.time(candidate.median)) (min \(Self.time(candidate.min)), max \(Self.time(candidate.max))); "
                + "\(baselineLabel): median \(Self.time(baseline.median)) (min \(Self.time(baseline.min)), max \(Self.time(baseline.max))); "
                + "\(candidate.samples.count) interleaved runs each")
    }

    func printTable() {
        out("\n| Metric | Value | Unit | Target | Met |")
        out("| --- | ---: | --- | --- | --- |")
        for row in rows {
            let met = row.met.map { $0 ? "yes" : "no" } ?? "-"
            out(
                "| \(row.metric) | \(Self.format(row.value)) | \(row.unit) | \(row.target.isEmpty ? "-" : row.target) | \(met) |"
            )
        }
    }

    static func format(_ value: Double) -> String {
        if value.isNaN || value.isInfinite { return "\(value)" }
        if abs(value) >= 1000 { return String(format: "%.0f", value) }
        if abs(value) >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.3g", value)
    }

    static func time(_ seconds: Double) -> String {
        if seconds < 1e-3 { return String(format: "%.1f µs", seconds * 1e6) }
        if seconds < 1 { return String(format: "%.2f ms", seconds * 1e3) }
        return String(format: "%.2f s", seconds)
    }
}

/// Writes a line to standard output at once (unbuffered, so progress shows when piped).
func out(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// A benchmark whose candidate and baseline disagree: a fast wrong answer is a failure.
struct MismatchError: Error, CustomStringConvertible {
    var scenario: String
    var what: String
    var description: String { "\(scenario): the candidate and the baseline disagree: \(what)" }
}

func verify(_ condition: Bool, _ scenario: String, _ what: @autoclosure () -> String) throws {
    guard condition else { throw MismatchError(scenario: scenario, what: what()) }
}
