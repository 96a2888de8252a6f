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
/// unresolved). Identifiers order by store (unresolved ones first), then entity, then primary key, so that
/// results are deterministic.
public struct PersistentIdentifier: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The identifier of the store that holds the model, or `nil` while the identifier is unresolved.
    public var storeIdentifier: String? {
        @inlinable get {
            guard case .named(let name) = store else { return nil }
            return name
        }
        @inlinable set { store = Store(newValue) }
    }
    /// The name of the model's entity in the schema.
    public var entityName: String
    /// The key that is unique among the entity's instances in the store.
    public var primaryKey: String

    /// The store part, held as an enum of this module's rather than a `String?`: Swift 6.3 copies a stored
    /// `String?` that is not in a register (an identifier copied from one array or table into another, a few
    /// times for every model a save or a fetch handles) through the run-time witness table of `Optional`,
    /// which calls `String`'s: a hundred instructions where a retain takes a few. This enum has the same
    /// size and copies through a witness of its own, without the nested calls.
    @usableFromInline var store: Store

    /// The store an identifier names, or none while unresolved.
    @usableFromInline enum Store: Hashable, Sendable {
        case unresolved
        case named(String)

        @inlinable init(_ name: String?) {
            if let name { self = .named(name) } else { self = .unresolved }
        }
    }

    /// Creates an identifier from its three parts.
    public init(storeIdentifier: String?, entityName: String, primaryKey: String) {
        self.store = Store(storeIdentifier)
        self.entityName = entityName
        self.primaryKey = primaryKey
    }

    /// Creates an unresolved identifier with a fresh random primary key, for a model not yet inserted: 15
    /// characters of the URL-safe Base64 alphabet (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`), 90 random bits.
    ///
    /// While a fetch makes models (each through its `init()`, whose identifier the stored one then replaces),
    /// the key is a placeholder instead: unique within the process, never equal to a random key. A model made
    /// inside another's `init()` during a fetch keeps its placeholder until a context inserts it, which gives
    /// it a random key.
    public init() {
        if Self.isReplacedRightAway {
            self.init(storeIdentifier: nil, entityName: "", primaryKey: Self.placeholderKey())
        } else {
            self.init(storeIdentifier: nil, entityName: "", primaryKey: Self.randomKey())
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

    /// The length of a random primary key.
    package static let randomKeyLength = 15

    /// A random primary key: 15 characters of the URL-safe Base64 alphabet, 90 bits from the seeded generator
    /// `RandomUUID` draws from (unique, not secret). Why not a UUID's 36 characters: a key of at most 15 bytes
    /// is held inside the `String` itself, so making one allocates nothing and copying one retains nothing, and
    /// every table keyed by identifier hashes fewer bytes. Two keys of a store collide with a probability of
    /// about n² / 2⁹¹ for n models (4 × 10⁻¹⁴ for ten million); a save that inserts a taken identifier is
    /// refused (`invalidSave`), never written over the model that has it.
    static func randomKey() -> String {
        let (high, low) = RandomUUID.bits()
        func digit(_ value: UInt64) -> UInt8 {
            let sextet = UInt8(truncatingIfNeeded: value & 0x3F)
            switch sextet {
            case 0..<26: return UInt8(ascii: "A") + sextet
            case 26..<52: return UInt8(ascii: "a") + sextet - 26
            case 52..<62: return UInt8(ascii: "0") + sextet - 52
            case 62: return UInt8(ascii: "-")
            default: return UInt8(ascii: "_")
            }
        }
        return String(unsafeUninitializedCapacity: randomKeyLength) { text in
            // Ten sextets from the first 64 bits, five from the second.
            for position in 0..<10 { text[position] = digit(high >> (6 * UInt64(position))) }
            for position in 0..<5 { text[10 + position] = digit(low >> (6 * UInt64(position))) }
            return randomKeyLength
        }
    }

    /// Whether a context has yet to resolve this identifier to a store and entity.
    public var isResolved: Bool { store != .unresolved }

    /// Orders by store identifier (unresolved first), entity name and primary key.
    public static func < (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
        // Equality first: the store and entity are usually the same, and short strings compare equal cheaply.
        if lhs.store != rhs.store {
            // Unresolved first, then by name (an unresolved identifier and one of a store named `""` are
            // ordered too, as they are unequal).
            guard case .named(let right) = rhs.store else { return false }
            guard case .named(let left) = lhs.store else { return true }
            return left < right
        }
        if lhs.entityName != rhs.entityName { return lhs.entityName < rhs.entityName }
        return lhs.primaryKey < rhs.primaryKey
    }

    /// Whether the two name the same model: the same store, entity and primary key. The keys are compared
    /// first: in a table of one entity's identifiers, every probe that meets another model then fails on its
    /// first comparison, where comparing the store and entity first (equal in the whole table) tripled it.
    @inlinable
    public static func == (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
        lhs.primaryKey == rhs.primaryKey && lhs.entityName == rhs.entityName && lhs.store == rhs.store
    }

    /// Hashes the primary key only: it tells identifiers apart almost always, and hashing the store and entity
    /// names too would triple the cost of every dictionary lookup. Equality still compares all three parts.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(primaryKey)
    }

    /// `store/Entity/key`, for messages.
    public var description: String {
        "\(storeIdentifier ?? "?")/\(entityName)/\(primaryKey)"
    }
}
