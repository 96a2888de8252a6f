import Foundation
import GRDB

/// GRDB 7 as its documentation shows it: records that are `Codable` (GRDB derives the mapping), and records
/// mapped by hand (`init(row:)` by column index, `encode(to:)` by column name). Both run on a
/// `DatabaseQueue` in WAL mode with `synchronous=FULL`, the durability of the JSON file store's default.
enum GRDBPeers {
    /// An order mapped by hand from the row's columns, by index.
    struct RowOrder: FetchableRecord, TableRecord {
        static let databaseTableName = "Orders"
        var order: PlainOrder
        init(row: Row) throws {
            order = PlainOrder(
                orderID: row[0], customerID: row[1], employeeID: row[2], orderDate: row[3],
                requiredDate: row[4],
                shippedDate: row[5], shipVia: row[6], freight: row[7], shipName: row[8], shipAddress: row[9],
                shipCity: row[10], shipRegion: row[11], shipPostalCode: row[12], shipCountry: row[13])
        }
    }

    /// A user record that the create loop can make.
    protocol UserRecord: PersistableRecord {
        init(id: String, firstName: String, lastName: String, age: Int64)
    }

    /// A user encoded through `Codable`.
    struct CodableUser: Codable, UserRecord {
        static let databaseTableName = "users"
        var id: String
        var firstName: String
        var lastName: String
        var age: Int64
    }

    /// A user encoded by hand.
    struct MappedUser: UserRecord {
        static let databaseTableName = "users"
        var id: String
        var firstName: String
        var lastName: String
        var age: Int64
        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["firstName"] = firstName
            container["lastName"] = lastName
            container["age"] = age
        }
    }

    static func queue(path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode=WAL")
            try db.execute(sql: "PRAGMA synchronous=FULL")
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    static func loadCodable(_ queue: DatabaseQueue) throws -> [PlainOrder] {
        try queue.read { try PlainOrder.fetchAll($0) }
    }

    static func loadRows(_ queue: DatabaseQueue) throws -> [RowOrder] {
        try queue.read { try RowOrder.fetchAll($0) }
    }

    /// Creates `count` users of record type `User` in one transaction.
    static func create<User: UserRecord>(_: User.Type, _ queue: DatabaseQueue, count: Int) throws {
        try queue.write { db in
            for index in 0..<count {
                let names = PlainUser.names(index)
                try User(id: UUID().uuidString, firstName: names.first, lastName: names.last, age: names.age)
                    .insert(db)
            }
        }
    }

    static func userCount(_ queue: DatabaseQueue) throws -> Int {
        try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM users") ?? 0 }
    }
}

/// The order decoded through `Codable` (its `CodingKeys` name Northwind's columns).
extension PlainOrder: FetchableRecord, TableRecord {
    static let databaseTableName = "Orders"
}
