#if PostgreSQL
    @testable import PostgresStorage
    import Testing

    /// The text array literals that saves and fetches send (`row_key = ANY($1::text[])`, the rows of an
    /// upsert): every value quoted, `"` and `\` escaped with a backslash, nothing else changed. Needs no
    /// server.
    struct ArrayLiteralTests {
        /// The literal spelled one character at a time, as the definition says.
        static func spelled(_ values: [String]) -> String {
            "{"
                + values.map { value in
                    "\"" + value.map { $0 == "\"" || $0 == "\\" ? "\\\($0)" : String($0) }.joined() + "\""
                }.joined(separator: ",") + "}"
        }

        @Test func valuesAreQuotedAndEscaped() {
            #expect(SQLFetchQuery.arrayLiteral([]) == "{}")
            #expect(SQLFetchQuery.arrayLiteral([""]) == #"{""}"#)
            #expect(SQLFetchQuery.arrayLiteral(["a", #"b "c""#]) == #"{"a","b \"c\""}"#)
            #expect(SQLFetchQuery.arrayLiteral([#"\"#, #"\\""#]) == #"{"\\","\\\\\""}"#)
            #expect(SQLFetchQuery.arrayLiteral(["é, ü", "{x}"]) == #"{"é, ü","{x}"}"#)
        }

        /// Strings of quotes, backslashes, commas, braces and other characters in every arrangement the
        /// generator draws, as the one-character-at-a-time spelling writes them.
        @Test func randomValuesAreSpelledAsDefined() {
            var generator = SystemRandomNumberGenerator()
            let alphabet: [Character] = ["\"", "\\", ",", "{", "}", "a", "Z", " ", "é", "🙂", "\n"]
            for _ in 0..<500 {
                let values = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                    String(
                        (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                            alphabet.randomElement(using: &generator)!
                        })
                }
                #expect(SQLFetchQuery.arrayLiteral(values) == Self.spelled(values), "\(values)")
            }
        }
    }
#endif
