public import DataStoreCore
import Foundation

/// A parsed JSON value, as ``JSONParser`` returns it.
public enum JSONValue: Equatable, Sendable {
    /// An object's members in the order written. A list, not a dictionary: the objects the stores write are
    /// small, and a linear search by key costs less than hashing every key while parsing.
    case object([Member])
    /// An array.
    case array([JSONValue])
    /// A string.
    case string(String)
    /// A number without fraction or exponent that fits in `Int64`.
    case integer(Int64)
    /// Any other number.
    case double(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// One member of an object.
    public struct Member: Equatable, Sendable {
        /// The member's key.
        public var key: String
        /// Its value.
        public var value: JSONValue

        /// A member.
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The member named `key` of an object (the last, if the key is repeated), or `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// The string, or `nil` for anything else.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The integer, or `nil` for anything else.
    public var integerValue: Int64? {
        if case .integer(let number) = self { return number }
        return nil
    }

    /// The number as a double (integers convert), or `nil`.
    public var doubleValue: Double? {
        switch self {
        case .double(let number): number
        case .integer(let number): Double(number)
        default: nil
        }
    }

    /// The elements, or `nil` for anything else.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The snapshot value this JSON spells in the one-key form, or `nil` if it spells none.
    public var snapshotValue: SnapshotValue? {
        if case .null = self { return .null }
        guard case .object(let members) = self, members.count == 1, let name = members.first?.key,
            let inner = members.first?.value
        else {
            return nil
        }
        switch name {
        case "string": return inner.stringValue.map(SnapshotValue.string)
        case "integer": return inner.integerValue.map(SnapshotValue.integer)
        case "double":
            switch inner {
            case .string("nan"): return .double(.nan)
            case .string("inf"): return .double(.infinity)
            case .string("-inf"): return .double(-.infinity)
            default: return inner.doubleValue.map(SnapshotValue.double)
            }
        case "bool":
            if case .bool(let flag) = inner { return .bool(flag) }
            return nil
        case "date": return inner.doubleValue.map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case "data": return inner.stringValue.flatMap { Data(base64Encoded: $0) }.map(SnapshotValue.data)
        case "uuid": return inner.stringValue.flatMap(UUID.init(uuidString:)).map(SnapshotValue.uuid)
        case "identifier": return inner.identifierValue.map(SnapshotValue.identifier)
        case "array":
            guard let elements = inner.arrayValue else { return nil }
            var values: [SnapshotValue] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                guard let value = element.snapshotValue else { return nil }
                values.append(value)
            }
            return .array(values)
        default: return nil
        }
    }

    /// The persistent identifier this JSON spells, or `nil`.
    public var identifierValue: PersistentIdentifier? {
        guard let entity = self["entity"]?.stringValue, let key = self["key"]?.stringValue else { return nil }
        return PersistentIdentifier(
            storeIdentifier: self["store"]?.stringValue, entityName: entity, primaryKey: key)
    }

    /// Attribute values by name, or `nil` if any member is not a snapshot value.
    public var snapshotValues: [String: SnapshotValue]? {
        guard case .object(let members) = self else { return nil }
        var values = [String: SnapshotValue](room: members.count)
        for member in members {
            guard let value = member.value.snapshotValue else { return nil }
            values[member.key] = value
        }
        return values
    }
}
