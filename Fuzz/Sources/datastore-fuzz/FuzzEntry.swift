import Foundation
import FuzzChecks

/// The target this process fuzzes, named by `DATASTORE_FUZZ_TARGET` (see `Scripts/fuzz`).
let target: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["DATASTORE_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        fatalError(
            "set DATASTORE_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))"
        )
    }
    return target
}()

/// libFuzzer's driver, linked by `-sanitize=fuzzer`.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The program's entry point. SwiftPM links an executable's `main` to `<module>_main`; this target is compiled
/// as a library (no top-level code), so it names that symbol itself and hands over to libFuzzer's driver.
@_cdecl("datastore_fuzz_main")
public func fuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var argc = argc
    var argv = argv
    return runFuzzerDriver(&argc, &argv, fuzzOneInput)
}

/// Checks one input, and crashes on a broken property so that the fuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    if let failure = target.check(bytes) { fatalError("\(target.rawValue): \(failure)") }
    return 0
}
