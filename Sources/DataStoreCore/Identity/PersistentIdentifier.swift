import Foundation
import Synchronization

/// Identifies one model instance in one store: the store, the entity and a primary key.
///
/// A model context assigns an identifier when a model is inserted, naming the store the entity is routed to
/// and a fresh random primary key. A store may remap it when it saves (for example when an insert with a
/// duplicate `.unique` value becomes an update of the existing row); the save result lists every remapping.
///
/// An identifier whose ``storeIdentifier`` is `nil` is *unresolved*: a model created outside a context
/// (``init()``) carries one until a context inserts it. Contexts resolve it by its ``primaryKey``.
///
/// The Codable form is `{"store":"trips","entity":"Trip","key":"…"}` (the `store` key is omitted while
/// unresolved). Identifiers order by store, then entity, then primary key, so that results are deterministic.
public struct PersistentIdentifier: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The identifier of the store that holds the model, or `nil` while the identifier is unresolved.
    public var storeIdentifier: String?
    /// The name of the model's entity in the schema.
    public var entityName: String
    /// The key that is unique among the entity's instances in the store.
    public var primaryKey: String

    /// Creates an identifier from its three parts.
    public init(storeIdentifier: String?, entityName: String, primaryKey: String) {
        self.storeIdentifier = storeIdentifier
        self.entityName = entityName
        self.primaryKey = primaryKey
    }

    /// Creates an unresolved identifier with a fresh random primary key, for a model not yet inserted.
    ///
    /// While a fetch makes models (each through its `init()`, whose identifier the stored one then replaces),
    /// the key is a placeholder instead: unique within the process, never equal to a random key. A model made
    /// inside another's `init()` during a fetch keeps its placeholder until a context inserts it, which gives
    /// it a random key.
    public init() {
        if Self.isReplacedRightAway {
            self.init(storeIdentifier: nil, entityName: "", primaryKey: Self.placeholderKey())
        } else {
            self.init(storeIdentifier: nil, entityName: "", primaryKey: Self.randomUUIDString())
        }
    }

    /// Whether the identifiers `init()` makes now are replaced as soon as they are made: a fetch makes each model
    /// with its `init()`, which draws an identifier, and then gives it the stored one. Drawing a random key only
    /// to drop it was a tenth of making a model, so while this is set `init()` makes a placeholder instead.
    @TaskLocal package static var isReplacedRightAway = false

    private static let placeholders = Atomic<Int>(0)

    /// A key no random one equals, distinct within the process, and short enough to need no allocation. One
    /// that escapes (a model an `init()` makes inside another's) gets a random key when it is inserted.
    private static func placeholderKey() -> String {
        var number = UInt64(truncatingIfNeeded: placeholders.wrappingAdd(1, ordering: .relaxed).newValue)
        // The marker, then the number in hexadecimal, least significant digit first: at most 15 bytes, which a
        // `String` holds inline.
        return String(unsafeUninitializedCapacity: 15) { text in
            text[0] = 1
            var count = 1
            repeat {
                let nibble = UInt8(number & 0xF)
                text[count] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
                count += 1
                number >>= 4
            } while number != 0 && count < 15
            return count
        }
    }

    /// Whether the primary key is a placeholder that `init()` made while a fetch made a model.
    package var isPlaceholder: Bool { primaryKey.utf8.first == 1 }

    /// A version 4 UUID from the system's random source, spelled as `UUID().uuidString` spells one. Every
    /// model a fetch materialises draws one (its `init()` runs before its values are set), and Foundation's
    /// `UUID()` on Linux opens and reads `/dev/urandom` each time and formats through `snprintf`.
    static func randomUUIDString() -> String {
        var bytes = RandomUUID.make().uuid
        // Upper-case hexadecimal, computed: a table of digits made here would be one more allocation per model.
        func digit(_ nibble: UInt8) -> UInt8 {
            nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") - 10 + nibble
        }
        return withUnsafeBytes(of: &bytes) { buffer in
            String(unsafeUninitializedCapacity: 36) { text in
                var position = 0
                for (index, byte) in buffer.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = digit(byte >> 4)
                    text[position + 1] = digit(byte & 0x0F)
                    position += 2
                }
                return position
            }
        }
    }

    /// Whether a context has yet to resolve this identifier to a store and entity.
    public var isResolved: Bool { storeIdentifier != nil }

    /// Orders by store identifier, entity name and primary key.
    public static func < (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
        // Equality first: the store and entity are usually the same, and short strings compare equal cheaply.
        if lhs.storeIdentifier != rhs.storeIdentifier {
            return (lhs.storeIdentifier ?? "") < (rhs.storeIdentifier ?? "")
        }
        if lhs.entityName != rhs.entityName { return lhs.entityName < rhs.entityName }
        return lhs.primaryKey < rhs.primaryKey
    }

    /// Hashes the primary key only: it tells identifiers apart almost always, and hashing the store and entity
    /// names too would triple the cost of every dictionary lookup. Equality still compares all three parts.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(primaryKey)
    }

    /// `store/Entity/key`, for messages.
    public var description: String {
        "\(storeIdentifier ?? "?")/\(entityName)/\(primaryKey)"
    }
}
