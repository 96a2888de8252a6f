import Foundation

/// The `datastore` command-line tool, as a library so that its logic can be tested: `run` takes the arguments
/// and an output function and returns the exit status.
public enum DataStoreTool {
    /// Runs one command. Exit status: 0 success, 1 a failure (a corrupt store, an error from the store), 2 a
    /// usage error (unknown command, wrong path, malformed token).
    public static func run(
        _ arguments: [String], output: @Sendable (String) -> Void, errors: @Sendable (String) -> Void
    ) async -> Int32 {
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments.parse(
                arguments, flags: { ToolCommand(rawValue: $0)?.flags ?? [] },
                options: { ToolCommand(rawValue: $0)?.options ?? [] })
        } catch {
            errors("datastore: \(error)\n\n\(ToolCommand.overview)")
            return 2
        }
        guard let name = parsed.command else {
            if parsed.flags.contains("help") {
                output(ToolCommand.overview)
                return 0
            }
            errors("datastore: no command given\n\n\(ToolCommand.overview)")
            return 2
        }
        guard let command = ToolCommand(rawValue: name) else {
            errors("datastore: unknown command '\(name)'\n\n\(ToolCommand.overview)")
            return 2
        }
        if parsed.flags.contains("help") {
            output(command.help)
            return 0
        }
        guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
            errors("datastore: \(command.rawValue) takes one PATH\n\nusage: \(command.synopsis)")
            return 2
        }
        let directory = URL(fileURLWithPath: path, isDirectory: true)
        do {
            if OpenedStore.isConnectionString(path) {
                let open = { try OpenedStore.open(connectionString: path, parsed) }
                switch command {
                case .info: try InfoCommand.run(try open(), directory: nil, output: output)
                case .history: try HistoryCommand.run(open, parsed, output: output)
                case .tail: try await TailCommand.run(open, parsed, output: output)
                default:
                    throw UsageError(
                        "\(command.rawValue) works on store directories; a database has its own tools")
                }
                return 0
            }
            let open = { try OpenedStore.open(directory) }
            switch command {
            case .info: try InfoCommand.run(try open(), directory: directory, output: output)
            case .schema: try SchemaCommand.run(directory, output: output)
            case .history: try HistoryCommand.run(open, parsed, output: output)
            case .tail: try await TailCommand.run(open, parsed, output: output)
            case .verify: return try VerifyCommand.run(directory, output: output) ? 0 : 1
            case .repair: try RepairCommand.run(directory, output: output)
            case .compact: try CompactCommand.run(directory, parsed, output: output)
            }
            return 0
        } catch let error as UsageError {
            errors("datastore: \(error)\n\nusage: \(command.synopsis)")
            return 2
        } catch is CancellationError {
            return 0
        } catch {
            errors("datastore: \(error)")
            return 1
        }
    }
}
