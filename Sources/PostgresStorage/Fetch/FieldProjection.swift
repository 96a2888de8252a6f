#if PostgreSQL
    import DataStoreCore
    import Foundation
    import DataStoreKit

    /// The `fields` column: a model's scalar values as plain JSON, so that SQL can compare and sort them the
    /// way `SnapshotValue.satisfies(_:_:)` and `SnapshotValue.compare(to:)` do.
    ///
    /// Strings are stored in NFC and compared with the binary `"C"` collation (Swift compares canonically
    /// equivalent strings as equal and orders by Unicode scalars). Doubles that JSON cannot spell are stored as
    /// PostgreSQL spells them (`NaN`, `Infinity`), and ``expression(attribute:kind:)`` turns NaN into SQL `NULL`,
    /// so that it compares as nothing, as in Swift. `nil`, data, identifiers and arrays are left out: a
    /// predicate on them runs in Swift.
    enum FieldProjection {
        /// The projection of `values`, as a JSON object.
        static func json(_ values: [String: SnapshotValue]) -> String {
            var writer = JSONWriter()
            write(values, into: &writer)
            return String(decoding: writer.bytes, as: UTF8.self)
        }

        /// Writes the projection of `values` as an object.
        static func write(_ values: [String: SnapshotValue], into writer: inout JSONWriter) {
            writer.beginObject()
            for name in values.keys.sorted() {
                guard let value = values[name], isProjected(value) else { continue }
                writer.key(name)
                switch value {
                case .string(let text): writer.string(normalized(text))
                case .integer(let number): writer.integer(number)
                case .double(let number): writeDouble(number, into: &writer)
                case .date(let date): writer.double(date.timeIntervalSinceReferenceDate)
                case .bool(let flag): writer.bool(flag)
                case .uuid(let uuid): writer.string(uuid.uuidString)
                default: break
                }
            }
            writer.endObject()
        }

        private static func isProjected(_ value: SnapshotValue) -> Bool {
            switch value {
            case .string, .integer, .double, .date, .bool, .uuid: true
            default: false
            }
        }

        private static func writeDouble(_ number: Double, into writer: inout JSONWriter) {
            if number.isNaN {
                writer.string("NaN")
            } else if number.isInfinite {
                writer.string(number > 0 ? "Infinity" : "-Infinity")
            } else {
                writer.double(number)
            }
        }

        /// The SQL expression reading the attribute named `name` of `kind` from `fields`, or `nil` for a kind SQL
        /// does not compare. The name is written as a string literal (schema names, never user data).
        static func expression(name: String, kind: String) -> String? {
            let attribute = literal(name)
            return switch kind {
            case "string", "uuid": "((fields->>\(attribute)) COLLATE \"C\")"
            case "integer": "((fields->>\(attribute))::bigint)"
            case "double": "NULLIF((fields->>\(attribute))::float8, 'NaN'::float8)"
            case "date": "((fields->>\(attribute))::float8)"
            case "bool": "((fields->>\(attribute))::boolean)"
            default: nil
            }
        }

        /// `text` in NFC, the form SQL compares; ASCII text is already in it (and normalising it through
        /// Foundation is the slow part of a save).
        static func normalized(_ text: String) -> String {
            text.utf8.allSatisfy { $0 < 0x80 } ? text : text.precomposedStringWithCanonicalMapping
        }

        /// `'name'`, quotes doubled (`standard_conforming_strings` is on since PostgreSQL 9.1).
        static func literal(_ text: String) -> String {
            "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        }

        /// A value as a SQL parameter for a comparison with ``expression(attribute:kind:)``, with the cast the
        /// parameter needs, or `nil` when the value cannot be compared in SQL exactly as in Swift (NaN).
        static func parameter(_ value: SnapshotValue) -> (text: String, cast: String)? {
            switch value {
            case .string(let text): (normalized(text), "text")
            case .uuid(let uuid): (uuid.uuidString, "text")
            case .integer(let number): (String(number), "bigint")
            case .double(let number):
                number.isNaN
                    ? nil
                    : (number.isInfinite ? (number > 0 ? "Infinity" : "-Infinity") : "\(number)", "float8")
            case .date(let date): ("\(date.timeIntervalSinceReferenceDate)", "float8")
            case .bool(let flag): (flag ? "true" : "false", "boolean")
            default: nil
            }
        }
    }
#endif
