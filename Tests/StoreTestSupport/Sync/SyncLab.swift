public import DataStoreCore
public import DataStoreModels
public import DataStoreSync
public import Foundation
public import JSONFileStorage

/// A server store and devices that sync with it, each device a JSON file store in a temporary directory with
/// a model container on it, for the sync tests. Call ``remove()`` when done.
public final class SyncLab<Server: HistoryProvidingStore>
where Server.HistoryType.Change: ValueRecordingHistoryChange {
    /// The store every device syncs with.
    public let server: Server
    /// The folder holding the devices' stores.
    public let directory: URL

    /// A lab around `server`.
    public init(server: Server) throws {
        self.server = server
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sync-lab-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Opens (or reopens) the device `name`, syncing trips and items.
    public func device(
        _ name: String, schema: Schema = SyncSchemas.trips,
        models: [any PersistentModel.Type] = [SyncTrip.self, SyncItem.self],
        resolver: @escaping SyncConflictResolver = { $0.local }
    ) throws -> SyncDevice<Server> {
        let store = try JSONFileDataStore(
            .init(
                name: name, schema: schema, directory: directory.appendingPathComponent(name),
                durability: .relaxed))
        return try SyncDevice(store: store, server: server, models: models, resolver: resolver)
    }

    /// The trips and items `store` holds, as comparable lines: a trip's items in the order of its list.
    public static func state(of store: some HistoryProvidingStore) throws -> [String] {
        let context = ModelContext(
            try ModelContainer(
                for: [SyncTrip.self, SyncItem.self], configurations: [ModelConfiguration(store: store)]))
        let trips = try context.fetch(FetchDescriptor<SyncTrip>()).map {
            "trip \($0.persistentModelID.primaryKey) \($0.name)|\($0.destination)|\($0.nights)|\($0.notes)|"
                + $0.items.map(\.title).joined(separator: ",")
        }
        let items = try context.fetch(FetchDescriptor<SyncItem>()).map {
            "item \($0.persistentModelID.primaryKey) \($0.title)|\($0.trip?.name ?? "-")"
        }
        return (trips + items).sorted()
    }

    /// Removes the devices' folder.
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// One device of a ``SyncLab``: its store, a container on it, and its sync engine.
public final class SyncDevice<Server: HistoryProvidingStore>
where Server.HistoryType.Change: ValueRecordingHistoryChange {
    /// The device's store.
    public let store: JSONFileDataStore
    /// A container on it, as the app would have.
    public let container: ModelContainer
    /// The sync.
    public let engine: SyncEngine<JSONFileDataStore, Server>

    init(
        store: JSONFileDataStore, server: Server, models: [any PersistentModel.Type],
        resolver: @escaping SyncConflictResolver
    ) throws {
        self.store = store
        container = try ModelContainer(for: models, configurations: [ModelConfiguration(store: store)])
        engine = try SyncEngine(
            local: store, server: server, device: store.identifier, models: models, resolver: resolver)
    }

    /// Makes an edit in a new context and saves it, as the app would.
    public func edit(_ body: (ModelContext) throws -> Void) throws {
        let context = ModelContext(container)
        context.author = "app"
        try body(context)
        try context.save()
    }

    /// The trip named `name`, in a new context.
    public func trip(_ name: String, in context: ModelContext) throws -> SyncTrip? {
        try context.fetch(FetchDescriptor<SyncTrip>(predicate: #Predicate { $0.name == name })).first
    }

    /// The item titled `title`, in `context`.
    public func item(_ title: String, in context: ModelContext) throws -> SyncItem? {
        try context.fetch(FetchDescriptor<SyncItem>(predicate: #Predicate { $0.title == title })).first
    }

    /// The trips and items the device holds, as comparable lines.
    public func state() throws -> [String] { try SyncLab<Server>.state(of: store) }

    /// Syncs.
    @discardableResult
    public func sync() throws -> SyncOutcome { try engine.sync() }
}
