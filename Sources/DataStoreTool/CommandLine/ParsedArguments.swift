/// A command line split into the command, its positional arguments, its flags and its options.
///
/// The grammar is small on purpose: `datastore COMMAND [PATH] [--flag] [--option VALUE]`, options and flags
/// in any order, `--option=VALUE` also accepted, and `--` ending option parsing.
public struct ParsedArguments: Equatable, Sendable {
    /// The command, such as `history`, or `nil` when none was given.
    public var command: String?
    /// Positional arguments after the command.
    public var positionals: [String] = []
    /// Flags that were given, such as `json`.
    public var flags: Set<String> = []
    /// Options with their values, such as `author: widget`.
    public var options: [String: String] = [:]

    /// Splits `arguments` (without the program name), accepting only the flags and options the command
    /// declares.
    ///
    /// - Throws: ``UsageError`` for an unknown option, a missing value, or an option given twice.
    public static func parse(
        _ arguments: [String], flags allowedFlags: (String) -> Set<String>,
        options allowedOptions: (String) -> Set<String>
    )
        throws(UsageError) -> ParsedArguments
    {
        var parsed = ParsedArguments()
        var rest = arguments[...]
        var optionsEnded = false
        while let argument = rest.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                if parsed.command == nil {
                    parsed.command = argument
                } else {
                    parsed.positionals.append(argument)
                }
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                parsed.flags.insert("help")
                continue
            }
            guard argument.hasPrefix("--") else { throw UsageError("unknown option '\(argument)'") }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            let command = parsed.command ?? ""
            if allowedFlags(command).contains(name) {
                guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
                parsed.flags.insert(name)
            } else if allowedOptions(command).contains(name) {
                guard let value = inlineValue ?? rest.popFirst() else {
                    throw UsageError("--\(name) needs a value")
                }
                guard parsed.options.updateValue(value, forKey: name) == nil else {
                    throw UsageError("--\(name) was given twice")
                }
            } else {
                throw UsageError("unknown option '--\(name)'" + (command.isEmpty ? "" : " for '\(command)'"))
            }
        }
        return parsed
    }
}

/// A mistake in how the tool was called; it exits with status 2 and the message.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
