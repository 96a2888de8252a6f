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

    /// The stores' seeds as the stores write them today open through their targets (a refusal fails here, so a
    /// format change cannot leave the fuzzer starting from inputs every store refuses) and fit the length the
    /// fuzzer allows. `DATASTORE_FUZZ_WRITE_SEEDS=1` also writes them into `Corpus/<target>/`.
    @Test func theSeedsTheStoresWriteTodayOpen() throws {
        let write = ProcessInfo.processInfo.environment["DATASTORE_FUZZ_WRITE_SEEDS"] == "1"
        for (target, seeds) in try FuzzSeeds.make() {
            for (name, bytes) in seeds {
                #expect(bytes.count <= 8_192, "\(target.rawValue)/\(name) is \(bytes.count) bytes")
                #expect(target.check(bytes, refusalIsFailure: true) == nil, "\(target.rawValue)/\(name)")
                if write {
                    try Data(bytes).write(
                        to: Self.fuzzDirectory.appendingPathComponent("Corpus/\(target.rawValue)/\(name)"))
                }
            }
        }
    }
}
