// datastore: inspect, verify, tail and compact DataStoreHistory stores on disk. The logic lives in the
// DataStoreTool library; this file wires it to the process: arguments, output, exit status, and Ctrl-C.

import DataStoreTool
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

func write(_ handle: FileHandle, _ text: String) {
    handle.write(Data((text + "\n").utf8))
}

/// Ctrl-C (SIGINT) cancels the running command, so `tail` ends its watch, closes its files and exits 0.
///
/// A function rather than top-level code: closures formed at top level are main-actor isolated, and this one
/// runs on a Dispatch queue.
func cancelOnInterrupt(_ task: Task<Int32, Never>) -> any DispatchSourceSignal {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler { task.cancel() }
    source.resume()
    return source
}

let command = Task {
    await DataStoreTool.run(
        Array(CommandLine.arguments.dropFirst()), output: { write(.standardOutput, $0) },
        errors: { write(.standardError, $0) })
}
let interrupt = cancelOnInterrupt(command)
let status = await command.value
interrupt.cancel()
exit(status)
