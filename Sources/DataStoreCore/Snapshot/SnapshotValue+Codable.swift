import Foundation

extension SnapshotValue: Codable {
    private enum Key: String, CodingKey, CaseIterable {
        case string, integer, double, bool, date, data, uuid, identifier, array
    }

    /// Decodes the one-key object form; see ``SnapshotValue``.
    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
            return
        }
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "A snapshot value is an object with exactly one of the keys "
                        + Key.allCases.map(\.rawValue).joined(separator: ", ")))
        }
        switch key {
        case .string: self = .string(try container.decode(String.self, forKey: key))
        case .integer: self = .integer(try container.decode(Int64.self, forKey: key))
        case .double:
            if let text = try? container.decode(String.self, forKey: key) {
                switch text {
                case "nan": self = .double(.nan)
                case "inf": self = .double(.infinity)
                case "-inf": self = .double(-.infinity)
                default:
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container, debugDescription: "Unknown double spelling \(text)")
                }
            } else {
                self = .double(try container.decode(Double.self, forKey: key))
            }
        case .bool: self = .bool(try container.decode(Bool.self, forKey: key))
        case .date:
            self = .date(Date(timeIntervalSinceReferenceDate: try container.decode(Double.self, forKey: key)))
        case .data: self = .data(try container.decode(Data.self, forKey: key))
        case .uuid: self = .uuid(try container.decode(UUID.self, forKey: key))
        case .identifier: self = .identifier(try container.decode(PersistentIdentifier.self, forKey: key))
        case .array: self = .array(try container.decode([SnapshotValue].self, forKey: key))
        }
    }

    /// Encodes the one-key object form; see ``SnapshotValue``.
    public func encode(to encoder: any Encoder) throws {
        if case .null = self {
            var single = encoder.singleValueContainer()
            try single.encodeNil()
            return
        }
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .string(let value): try container.encode(value, forKey: .string)
        case .integer(let value): try container.encode(value, forKey: .integer)
        case .double(let value):
            if value.isNaN {
                try container.encode("nan", forKey: .double)
            } else if value.isInfinite {
                try container.encode(value > 0 ? "inf" : "-inf", forKey: .double)
            } else {
                try container.encode(value, forKey: .double)
            }
        case .bool(let value): try container.encode(value, forKey: .bool)
        case .date(let value): try container.encode(value.timeIntervalSinceReferenceDate, forKey: .date)
        case .data(let value): try container.encode(value, forKey: .data)
        case .uuid(let value): try container.encode(value, forKey: .uuid)
        case .identifier(let value): try container.encode(value, forKey: .identifier)
        case .array(let value): try container.encode(value, forKey: .array)
        case .null: break
        }
    }
}
