import Foundation
import FuzzChecks
import Testing

/// Replays every input of the fuzz corpus (`Fuzz/Corpus/<target>/`) and every crasher the fuzzer ever saved
/// (`Fuzz/Crashers/<target>-<name>`) through the target's checks, so that a fixed crash stays fixed.
@Suite struct FuzzReplayTests {
    static let fuzzDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The files of `directory` whose names start with `prefix`.
    static func inputs(in directory: URL, prefix: String = "") -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && !$0.hasPrefix(".") }.sorted().map {
            directory.appendingPathComponent($0)
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func theCorpusAndEverySavedCrasherPass(_ target: FuzzTarget) throws {
        let corpus = Self.inputs(in: Self.fuzzDirectory.appendingPathComponent("Corpus/\(target.rawValue)"))
        let crashers = Self.inputs(
            in: Self.fuzzDirectory.appendingPathComponent("Crashers"), prefix: "\(target.rawValue)-")
        #expect(!corpus.isEmpty, "no seed corpus for \(target.rawValue)")
        for input in corpus + crashers {
            let bytes = [UInt8](try Data(contentsOf: input))
            #expect(target.check(bytes) == nil, "\(input.lastPathComponent)")
        }
    }
}
