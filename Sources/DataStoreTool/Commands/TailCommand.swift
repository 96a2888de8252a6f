import Foundation

/// `datastore tail PATH [--after TOKEN]`: prints each new transaction until the task is cancelled (Ctrl-C).
enum TailCommand {
    static func run(_ open: () throws -> OpenedStore, _ arguments: ParsedArguments, output: (String) -> Void)
        async throws
    {
        let store = try open()
        let stream = try store.follow(after: try TokenOption.read(arguments))
        output("following \(store.backendName) store '\(store.identifier)'; Ctrl-C to stop")
        output(TableFormatter.align([TableFormatter.headers]))
        for try await row in stream {
            for cells in TableFormatter.cells(row) { output(cells.joined(separator: "  ")) }
        }
    }
}
