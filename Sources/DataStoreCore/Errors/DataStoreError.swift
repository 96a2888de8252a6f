import Foundation

/// Every error the package's stores, tokens and model layer throw.
///
/// The error is a struct, as SwiftData's `SwiftDataError` is, so that new conditions can be added without breaking
/// code that handles the existing ones. Its ``code`` says what went wrong; the other properties say where (the
/// store, file, entity, attribute, token position) and are `nil` when they do not apply to the code.
///
/// Match one condition in a `catch` clause with its static member, as with SwiftData:
///
/// ```swift
/// do {
///     try container.fetchHistory(descriptor)
/// } catch DataStoreError.historyTokenExpired {
///     token = nil  // start over, as SwiftData advises
/// }
/// ```
///
/// Read the details from the caught value (`catch let error as DataStoreError where error.code == .storeLocked`).
/// The static members match by code in `catch` and `case` patterns only: `==` compares the details too, so in
/// Swift Testing write `#expect { … } throws: { ($0 as? DataStoreError)?.code == .storeLocked }` rather than
/// `#expect(throws: DataStoreError.storeLocked)`.
/// ``description`` gives a full sentence for logs. Two errors are equal when their code and details are equal;
/// ``underlyingError`` does not take part.
public struct DataStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong. Compare it with the static members of ``Code``.
    public let code: Code
    /// The name of the store involved.
    public let store: String?
    /// The store a rejected token belongs to (``Code/historyTokenFromAnotherStore``).
    public let tokenStore: String?
    /// The file or directory involved.
    public let path: String?
    /// The byte offset in ``path`` where damage was found (``Code/corruptStoreFile``).
    public let offset: Int64?
    /// The entity involved.
    public let entity: String?
    /// The attribute involved; for a compound unique constraint, its attributes joined by `", "`.
    public let attribute: String?
    /// The offending value, as text (``Code/uniqueConstraintViolation``).
    public let value: String?
    /// The model involved (``Code/modelNotFound``).
    public let identifier: PersistentIdentifier?
    /// The position a rejected token names.
    public let tokenSequence: Int64?
    /// The oldest position a token of the store may name (``Code/historyTokenExpired``).
    public let oldestValidSequence: Int64?
    /// The store's latest position (``Code/historyTokenBeyondHistory``).
    public let latestSequence: Int64?
    /// Why a token expired (``Code/historyTokenExpired``).
    public let tokenExpiry: HistoryTokenExpiry?
    /// The kind of change a store refused (``Code/unsupportedChange``).
    public let changeKind: HistoryChangeKind?
    /// The Swift type an attribute expects (``Code/attributeTypeMismatch``).
    public let expectedType: String?
    /// The kind of value the store holds instead (``Code/attributeTypeMismatch``).
    public let foundType: String?
    /// The number of unsaved changes (``Code/unsavedChangesDuringEnumeration``).
    public let changeCount: Int?
    /// The format version a file declares (``Code/unsupportedFormatVersion``).
    public let formatVersion: Int?
    /// The newest format version this package reads (``Code/unsupportedFormatVersion``).
    public let supportedFormatVersion: Int?
    /// What went wrong, in words, where the code alone does not say it.
    public let reason: String?
    /// The error underneath, for example a `POSIXError` from a failed system call.
    public let underlyingError: (any Error & Sendable)?

    /// Creates an error; every detail defaults to `nil`. The static factory methods (such as
    /// ``historyTokenExpired(store:tokenSequence:oldestValidSequence:reason:)``) fill in the details each code
    /// needs and are what stores normally use.
    public init(
        _ code: Code, store: String? = nil, tokenStore: String? = nil, path: String? = nil,
        offset: Int64? = nil,
        entity: String? = nil, attribute: String? = nil, value: String? = nil,
        identifier: PersistentIdentifier? = nil, tokenSequence: Int64? = nil,
        oldestValidSequence: Int64? = nil,
        latestSequence: Int64? = nil, tokenExpiry: HistoryTokenExpiry? = nil,
        changeKind: HistoryChangeKind? = nil,
        expectedType: String? = nil, foundType: String? = nil, changeCount: Int? = nil,
        formatVersion: Int? = nil,
        supportedFormatVersion: Int? = nil, reason: String? = nil,
        underlyingError: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.store = store
        self.tokenStore = tokenStore
        self.path = path
        self.offset = offset
        self.entity = entity
        self.attribute = attribute
        self.value = value
        self.identifier = identifier
        self.tokenSequence = tokenSequence
        self.oldestValidSequence = oldestValidSequence
        self.latestSequence = latestSequence
        self.tokenExpiry = tokenExpiry
        self.changeKind = changeKind
        self.expectedType = expectedType
        self.foundType = foundType
        self.changeCount = changeCount
        self.formatVersion = formatVersion
        self.supportedFormatVersion = supportedFormatVersion
        self.reason = reason
        self.underlyingError = underlyingError
    }

    /// The details that take part in equality and hashing: everything but ``underlyingError``.
    private var comparable: [AnyHashable?] {
        [
            code, store, tokenStore, path, offset, entity, attribute, value, identifier, tokenSequence,
            oldestValidSequence, latestSequence, tokenExpiry, changeKind, expectedType, foundType,
            changeCount,
            formatVersion, supportedFormatVersion, reason,
        ]
    }

    /// Whether two errors have the same code and details (``underlyingError`` aside).
    public static func == (lhs: DataStoreError, rhs: DataStoreError) -> Bool {
        lhs.comparable == rhs.comparable
    }

    /// Hashes the code and details (``underlyingError`` aside).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(comparable)
    }

    /// Matches any error with the pattern's ``code``, so that `catch DataStoreError.storeLocked` catches every
    /// locked-store error whatever its details.
    public static func ~= (pattern: DataStoreError, value: any Error) -> Bool {
        (value as? DataStoreError)?.code == pattern.code
    }

    /// Matches a ``DataStoreError`` with the pattern's ``code`` (`if case DataStoreError.storeLocked = error`).
    public static func ~= (pattern: DataStoreError, value: DataStoreError) -> Bool {
        value.code == pattern.code
    }

    /// Matches an optional ``DataStoreError`` with the pattern's ``code`` (`if case .storeLocked = error as?
    /// DataStoreError`), so that the pattern never falls back to comparing every detail.
    public static func ~= (pattern: DataStoreError, value: DataStoreError?) -> Bool {
        value?.code == pattern.code
    }
}

extension DataStoreError {
    /// Whether this is a ``Code/historyTokenExpired`` error for a token from before the store was erased or
    /// recreated (rather than one whose history was deleted).
    public var isFromErasedOrRecreatedStore: Bool {
        guard code == .historyTokenExpired, case .storeErasedOrRecreated? = tokenExpiry else { return false }
        return true
    }
}
