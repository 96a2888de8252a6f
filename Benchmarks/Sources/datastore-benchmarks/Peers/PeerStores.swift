import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import JSONFileStorage
import PostgresStorage

/// This package's stores for a peer scenario, each behind a `ModelContainer`: in-memory, JSON file and, when
/// `DATASTORE_POSTGRES_URL` names a server, PostgreSQL (in a schema of its own, dropped afterwards).
struct PeerStores {
    var containers: [(name: String, container: ModelContainer)] = []
    private var postgresSchema: String?

    static var postgresURL: String? { ProcessInfo.processInfo.environment["DATASTORE_POSTGRES_URL"] }

    /// The stores this run measures.
    static func names() -> [String] {
        ["inmemory", "jsonfile"] + (postgresURL == nil ? [] : ["postgres"])
    }

    init(
        scratch: Scratch, name: String, models: [any PersistentModel.Type],
        durability: JSONFileStoreConfiguration.Durability,
        only: String? = nil
    ) throws {
        for store in Self.names() where only.map({ $0 == store }) ?? true {
            let configuration: ModelConfiguration
            switch store {
            case "inmemory":
                configuration = ModelConfiguration(InMemoryStoreConfiguration(name: name))
            case "jsonfile":
                configuration = ModelConfiguration(
                    JSONFileStoreConfiguration(
                        name: name, directory: scratch.path("\(name)-json"), durability: durability))
            default:
                let schema = "peers_" + UUID().uuidString.prefix(8).lowercased()
                postgresSchema = schema
                configuration = ModelConfiguration(
                    PostgresStoreConfiguration(
                        name: name, connectionString: Self.postgresURL!, databaseSchema: schema))
            }
            containers.append((store, try ModelContainer(for: models, configurations: [configuration])))
        }
    }

    /// Drops the PostgreSQL schema, if this made one.
    func dropPostgres() {
        guard let schema = postgresSchema, let url = Self.postgresURL, let raw = try? RawPostgres(url) else {
            return
        }
        _ = try? raw.execute("SET client_min_messages = warning")
        _ = try? raw.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE")
    }
}
