import DataStoreCore
import Foundation

/// One check's view of the store under test: fixture snapshots, saves and fetches, and the factory to
/// reopen the store.
final class Harness<Store: HistoryProvidingStore>: @unchecked Sendable {
    // `@unchecked`: `store` is only replaced by `reopen()`, which checks call sequentially.

    let check: ConformanceCase
    let context: ConformanceContext
    let capabilities: ConformanceCapabilities
    private let makeStore: @Sendable (ConformanceContext) throws -> Store
    private(set) var store: Store
    let expect: Expect
    /// Sample times grow from here, one second per item, so time-series stores see them in order.
    let epochDate = Date().addingTimeInterval(-3_600)
    private var nextSample = 0

    init(
        check: ConformanceCase, context: ConformanceContext, capabilities: ConformanceCapabilities,
        makeStore: @escaping @Sendable (ConformanceContext) throws -> Store
    ) throws {
        self.check = check
        self.context = context
        self.capabilities = capabilities
        self.makeStore = makeStore
        self.store = try makeStore(context)
        self.expect = Expect(check: check)
    }

    /// The harness operation in progress.
    private var operation: String?
    /// The last harness operation that threw, so that a store that throws while a check sets up is reported
    /// with the operation that threw, not blamed on the rule under test.
    private(set) var failedOperation: String?

    /// Runs `body` as the named operation.
    func performing<T>(_ name: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        let outer = operation
        if outer == nil {
            operation = name()
            failedOperation = nil
        }
        defer { operation = outer }
        do {
            return try body()
        } catch {
            if outer == nil { failedOperation = operation }
            throw error
        }
    }

    /// Opens the store again at the same location, as a durable store must allow.
    func reopen() throws {
        store = try performing("reopening the store") { try makeStore(context) }
    }

    /// Opens a second instance on the same location while the first stays open.
    func openAnotherInstance() throws -> Store {
        try performing("opening a second instance of the store") { try makeStore(context) }
    }

    var isInsertOnly: Bool { capabilities.contains(.insertOnly) }

    func identifier(_ key: String) -> PersistentIdentifier {
        PersistentIdentifier(
            storeIdentifier: store.identifier, entityName: ConformanceItem.entityName, primaryKey: key)
    }

    /// A fixture item snapshot whose key is its name.
    func item(_ name: String, value: Int = 0, note: String = "", tag: String = "") -> DataStoreSnapshot {
        nextSample += 1
        var model = ConformanceItem(
            name: name, value: value, note: note, tag: tag,
            timestamp: epochDate.addingTimeInterval(Double(nextSample)))
        model.persistentModelID = identifier(name)
        return model.snapshot
    }

    /// The snapshot with some values replaced.
    func changed(_ snapshot: DataStoreSnapshot, _ values: [String: SnapshotValue]) -> DataStoreSnapshot {
        var copy = snapshot
        copy.values.merge(values) { _, new in new }
        return copy
    }

    @discardableResult
    func save(
        inserted: [DataStoreSnapshot] = [], updated: [DataStoreSnapshot] = [],
        deleted: [DataStoreSnapshot] = [],
        author: String? = nil
    ) throws -> Store.Token? {
        try performing(
            "save(inserted: \(inserted.count), updated: \(updated.count), deleted: \(deleted.count))"
        ) {
            try store.save(
                DataStoreSaveChangesRequest(
                    editingState: EditingState(author: author), inserted: inserted, updated: updated,
                    deleted: deleted)
            ).token
        }
    }

    /// Saves one new item per call and returns the tokens, failing if a save returns none.
    func saveItems(_ names: [String], author: String? = nil) throws -> [Store.Token] {
        try performing("saving \(names.count) items one save at a time") {
            try saveEach(names, author: author)
        }
    }

    private func saveEach(_ names: [String], author: String?) throws -> [Store.Token] {
        try names.map { name in
            guard let token = try save(inserted: [item(name)], author: author) else {
                throw expect.failure(expected: "a token for the save of '\(name)'", observed: "nil")
            }
            return token
        }
    }

    func history(_ descriptor: HistoryDescriptor<Store.HistoryType> = HistoryDescriptor()) throws
        -> [Store.HistoryType]
    {
        try performing("fetchHistory") { try store.fetchHistory(descriptor) }
    }

    func items(_ descriptor: FetchDescriptor<ConformanceItem> = FetchDescriptor()) throws
        -> [DataStoreSnapshot]
    {
        try performing("fetch") { try store.fetch(DataStoreFetchRequest(descriptor: descriptor)).snapshots }
    }

    /// Data and history, to compare before and after something that must change nothing.
    func state() throws -> StoreState {
        StoreState(
            items: Set(try items()),
            transactions: try history().map { "\($0.transactionIdentifier):\($0.changes.count)" })
    }

    struct StoreState: Equatable, CustomStringConvertible {
        var items: Set<DataStoreSnapshot>
        var transactions: [String]
        var description: String { "\(items.count) items, transactions \(transactions)" }
    }
}
