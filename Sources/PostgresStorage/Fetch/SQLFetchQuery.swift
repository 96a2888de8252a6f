#if PostgreSQL
    import DataStoreCore
    import DataStoreKit
    import Foundation

    /// A model fetch as one SQL query over the `models` table: the predicate's constraints as `WHERE`, and,
    /// when ``FetchPushdown`` says the pushdown is exact and every part of it has a SQL form, `ORDER BY`,
    /// `LIMIT` and `OFFSET` too. Otherwise the `WHERE` is a necessary condition only and the store finishes the
    /// fetch in Swift with `SnapshotQuery`.
    struct SQLFetchQuery {
        /// The statement; selects `primary_key, snapshot`.
        private(set) var sql: String
        /// Its parameters: `$1` is the store, `$2` the entity.
        private(set) var parameters: [String?]
        /// Whether the rows are the fetch's exact answer, in order: no Swift evaluation needed.
        private(set) var isExact: Bool

        init<Model: PersistentModel>(
            _ descriptor: FetchDescriptor<Model>, tables: StoreTables, store: String, entity: String
        ) {
            let pushdown = FetchPushdown(descriptor)
            var parameters: [String?] = [store, entity]
            var conditions = ["store = $1", "entity = $2"]
            var exact = pushdown.isExact
            let kinds = Dictionary(
                Model.schemaAttributes.map { ($0.name, $0.valueKind) },
                uniquingKeysWith: { first, _ in first })

            func parameter(_ text: String?) -> String {
                parameters.append(text)
                return "$\(parameters.count)"
            }

            let bounds = pushdown.bounds
            if let identifier = bounds.identifier {
                if identifier.storeIdentifier == store, identifier.entityName == entity {
                    conditions.append("primary_key = \(parameter(identifier.primaryKey))")
                } else {
                    conditions.append("FALSE")
                }
            }
            var rows = tables.models
            if let identifiers = bounds.identifiers {
                // A probe of `row_key`'s index per identifier. As a condition beside `store` and `entity`, a
                // table without statistics was planned as a walk of the primary key's `store, entity` prefix:
                // every row of the entity.
                let keys = identifiers.filter { $0.storeIdentifier == store && $0.entityName == entity }
                    .map { StoreTables.rowKey($0, store: store) }
                rows = StoreTables.rows(
                    of: tables.models, byUnique: "row_key", in: parameter(Self.arrayLiteral(keys)),
                    columns: "*")
            }
            if let membership = bounds.attributeMembership {
                let kind = kinds[membership.name]
                let converted = membership.values.compactMap { value in
                    value.kindName == kind ? FieldProjection.parameter(value) : nil
                }
                if membership.values.isEmpty {
                    conditions.append("FALSE")
                } else if let kind, converted.count == membership.values.count,
                    let expression = FieldProjection.expression(name: membership.name, kind: kind),
                    let cast = converted.first?.cast
                {
                    let list = parameter(Self.arrayLiteral(converted.map(\.text)))
                    conditions.append("\(expression) = ANY(\(list)::\(cast)[])")
                } else {
                    exact = false
                }
            }
            for constraint in bounds.attributeConstraints {
                if let condition = Self.condition(
                    constraint, kind: kinds[constraint.name], parameter: parameter)
                {
                    conditions.append(condition)
                } else {
                    exact = false
                }
            }
            var sql =
                "SELECT primary_key, snapshot FROM \(rows) WHERE "
                + conditions.joined(separator: " AND ")
            var order: [String] = []
            if exact, let sort = pushdown.sort {
                for key in sort {
                    guard let kind = kinds[key.attribute],
                        let expression = FieldProjection.expression(name: key.attribute, kind: kind)
                    else {
                        exact = false
                        break
                    }
                    // `nil` sorts first, as in `SortDescriptor`.
                    order.append(expression + (key.ascending ? " ASC NULLS FIRST" : " DESC NULLS LAST"))
                }
            }
            if exact {
                order.append("primary_key")
                sql += " ORDER BY " + order.joined(separator: ", ")
                if let limit = pushdown.limit { sql += " LIMIT \(parameter(String(limit)))" }
                if pushdown.offset > 0 { sql += " OFFSET \(parameter(String(pushdown.offset)))" }
            }
            self.sql = sql
            self.parameters = parameters
            isExact = exact
        }

        /// The SQL form of one attribute comparison, decided as `SnapshotValue.satisfies(_:_:)` decides it,
        /// or `nil` when it has none.
        private static func condition(
            _ constraint: ModelAttributeConstraint, kind: String?,
            parameter: (String?) -> String
        ) -> String? {
            if constraint.value == .null {
                let present = "(fields ? \(FieldProjection.literal(constraint.name)))"
                switch constraint.relation {
                case .equal: return "NOT \(present)"
                case .notEqual: return present
                default: return "FALSE"  // an ordering involving nil is false
                }
            }
            guard let kind, constraint.value.kindName == kind,
                let value = FieldProjection.parameter(constraint.value),
                let expression = FieldProjection.expression(name: constraint.name, kind: kind)
            else { return nil }
            let operand = "\(parameter(value.text))::\(value.cast)"
            switch constraint.relation {
            case .equal: return "\(expression) = \(operand)"
            case .notEqual: return "\(expression) IS DISTINCT FROM \(operand)"
            case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
                // Bools compare for equality only in a predicate: an ordering is false.
                guard kind != "bool" else { return "FALSE" }
                let op =
                    switch constraint.relation {
                    case .lessThan: "<"
                    case .lessThanOrEqual: "<="
                    case .greaterThan: ">"
                    default: ">="
                    }
                return "\(expression) \(op) \(operand)"
            }
        }

        /// A PostgreSQL array literal of text values: `{"a","b \"c\""}`. Saves pass every row's JSON through
        /// it (full of quotes to escape), so it is written into the string's storage directly: the runs
        /// between characters to escape are found eight bytes at a time and copied whole (appending byte by
        /// byte cost a twelfth of a sync push's instructions; Foundation's `replacingOccurrences`, before that,
        /// a fifth of a save).
        static func arrayLiteral(_ values: [String]) -> String {
            // Room for the worst case, every byte escaped; the string is only as long as what is written.
            var capacity = 2
            for value in values { capacity += 2 * value.utf8.count + 3 }
            return String(unsafeUninitializedCapacity: capacity) { buffer in
                let start = buffer.baseAddress!
                var out = start
                out.initialize(to: UInt8(ascii: "{"))
                out += 1
                for index in values.indices {
                    if index > 0 {
                        out.initialize(to: UInt8(ascii: ","))
                        out += 1
                    }
                    out.initialize(to: UInt8(ascii: "\""))
                    out += 1
                    var value = values[index]
                    out = value.withUTF8 { escaped($0, into: out) }
                    out.initialize(to: UInt8(ascii: "\""))
                    out += 1
                }
                out.initialize(to: UInt8(ascii: "}"))
                return out + 1 - start
            }
        }

        /// Writes `utf8` at `destination` with a backslash before each `"` and `\`, and returns where it ended.
        private static func escaped(
            _ utf8: UnsafeBufferPointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>
        ) -> UnsafeMutablePointer<UInt8> {
            guard let source = utf8.baseAddress else { return destination }
            var out = destination
            var run = 0
            while run < utf8.count {
                let next = firstQuoteOrBackslash(in: utf8, from: run)
                out.initialize(from: source + run, count: next - run)
                out += next - run
                guard next < utf8.count else { break }
                out.initialize(to: UInt8(ascii: "\\"))
                out[1] = source[next]
                out += 2
                run = next + 1
            }
            return out
        }

        /// The position of the first `"` or `\` in `bytes` at or after `start`, or `bytes.count`: eight bytes at
        /// a time (``ByteWord``), then the rest one at a time.
        private static func firstQuoteOrBackslash(in bytes: UnsafeBufferPointer<UInt8>, from start: Int)
            -> Int
        {
            let base = bytes.baseAddress!
            var offset = start
            while offset &+ 8 <= bytes.count {
                let word = ByteWord(base, at: offset)
                if word.hasByte(equalTo: UInt8(ascii: "\"")) || word.hasByte(equalTo: UInt8(ascii: "\\")) {
                    break
                }
                offset &+= 8
            }
            while offset < bytes.count, base[offset] != 0x22, base[offset] != 0x5C { offset &+= 1 }
            return offset
        }
    }
#endif
