import JSONFileStorage
import Testing

@testable import DataStoreTool

@Suite struct ArgumentParsingTests {
    func parse(_ arguments: [String]) throws -> ParsedArguments {
        try ParsedArguments.parse(
            arguments, flags: { $0 == "history" ? ["json", "jsonl"] : [] },
            options: { $0 == "history" ? ["after", "author", "limit"] : [] })
    }

    @Test func commandPathFlagsAndOptionsInAnyOrder() throws {
        let parsed = try parse(["history", "--author", "widget", "/tmp/store", "--json", "--limit=5"])
        #expect(parsed.command == "history")
        #expect(parsed.positionals == ["/tmp/store"])
        #expect(parsed.flags == ["json"])
        #expect(parsed.options == ["author": "widget", "limit": "5"])
    }

    @Test func aDoubleDashEndsOptions() throws {
        let parsed = try parse(["history", "--", "--json"])
        #expect(parsed.positionals == ["--json"])
        #expect(parsed.flags.isEmpty)
    }

    @Test func helpIsAFlagEverywhere() throws {
        #expect(try parse(["--help"]).flags == ["help"])
        #expect(try parse(["history", "-h"]).flags == ["help"])
    }

    @Test(arguments: [
        (["history", "--colour", "red"], "unknown option '--colour' for 'history'"),
        (["history", "--author"], "--author needs a value"),
        (["history", "--json=yes"], "--json takes no value"),
        (["history", "--limit", "1", "--limit", "2"], "--limit was given twice"),
        (["info", "--json"], "unknown option '--json' for 'info'"),
        (["-x"], "unknown option '-x'"),
    ])
    func mistakesAreUsageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try parse(arguments) }
    }

    @Test func aMalformedTokenIsAUsageError() {
        #expect {
            try TokenParsing.storeToken(JSONFileHistoryToken.self, from: #"{"v":1"#, store: "trips")
        } throws: { error in
            (error as? UsageError)?.message.hasPrefix("malformed token") == true
        }
    }
}
