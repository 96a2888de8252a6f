import DataStoreCore

/// How failure reports print values: compactly and in a stable order, so that a report reads the same every
/// run. Dictionaries and sets print sorted, snapshot values as written in Swift, tokens by their description
/// (`memory:conformance@3`), optionals without `Optional(…)`, string keys without quotes.
enum ConformanceFormat {
    static func describe(_ value: Any) -> String {
        if let value = value as? SnapshotValue { return value.userDescription }
        if let value = value as? any StoreHistoryToken { return String(describing: value) }
        if let value = value as? DataStoreSnapshot {
            return "\(value.persistentIdentifier) \(describe(value.values))"
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.map { describe($0.value) } ?? "nil"
        case .dictionary:
            let pairs = mirror.children.map { pair -> (String, String) in
                let parts = Array(Mirror(reflecting: pair.value).children)
                let key = parts.first?.value ?? ""
                return ((key as? String) ?? describe(key), describe(parts.last?.value ?? ""))
            }
            return "[" + pairs.sorted { $0.0 < $1.0 }.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "]"
        case .set:
            return "[" + mirror.children.map { describe($0.value) }.sorted().joined(separator: ", ") + "]"
        case .collection:
            return "[" + mirror.children.map { describe($0.value) }.joined(separator: ", ") + "]"
        default:
            if let string = value as? String { return string.debugDescription }
            return String(describing: value)
        }
    }
}
