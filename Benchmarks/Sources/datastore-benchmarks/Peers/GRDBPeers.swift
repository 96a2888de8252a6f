import Foundation
import GRDB

/// GRDB 7 as its documentation shows it: records that are `Codable` (GRDB derives the mapping), and records
/// mapped by hand (`init(row:)` by column index, `encode(to:)` by column name). Both run on a
/// `DatabaseQueue` in WAL mode with `synchronous=FULL`, the durability of the JSON file store's default.
enum GRDBPeers {
    /// An order decoded through `Codable`.
    struct CodableOrder: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "Orders"
        var orderID: Int64
        var customerID: String?
        var employeeID: Int64?
        var orderDate: String?
        var requiredDate: String?
        var shippedDate: String?
        var shipVia: Int64?
        var freight: Double?
        var shipName: String?
        var shipAddress: String?
        var shipCity: String?
        var shipRegion: String?
        var shipPostalCode: String?
        var shipCountry: String?

        /// The Northwind column names.
        enum CodingKeys: String, CodingKey {
            case orderID = "OrderID"
            case customerID = "CustomerID"
            case employeeID = "EmployeeID"
            case orderDate = "OrderDate"
            case requiredDate = "RequiredDate"
            case shippedDate = "ShippedDate"
            case shipVia = "ShipVia"
            case freight = "Freight"
            case shipName = "ShipName"
            case shipAddress = "ShipAddress"
            case shipCity = "ShipCity"
            case shipRegion = "ShipRegion"
            case shipPostalCode = "ShipPostalCode"
            case shipCountry = "ShipCountry"
        }

        var plain: PlainOrder {
            PlainOrder(
                orderID: orderID, customerID: customerID, employeeID: employeeID, orderDate: orderDate,
                requiredDate: requiredDate, shippedDate: shippedDate, shipVia: shipVia, freight: freight,
                shipName: shipName, shipAddress: shipAddress, shipCity: shipCity, shipRegion: shipRegion,
                shipPostalCode: shipPostalCode, shipCountry: shipCountry)
        }
    }

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

    /// A user encoded through `Codable`.
    struct CodableUser: Codable, PersistableRecord {
        static let databaseTableName = "users"
        var id: String
        var firstName: String
        var lastName: String
        var age: Int64
    }

    /// A user encoded by hand.
    struct MappedUser: PersistableRecord {
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

    static func loadCodable(_ queue: DatabaseQueue) throws -> [CodableOrder] {
        try queue.read { try CodableOrder.fetchAll($0) }
    }

    static func loadRows(_ queue: DatabaseQueue) throws -> [RowOrder] {
        try queue.read { try RowOrder.fetchAll($0) }
    }

    static func createCodable(_ queue: DatabaseQueue, count: Int) throws {
        try queue.write { db in
            for index in 0..<count {
                let names = PlainUser.names(index)
                try CodableUser(
                    id: UUID().uuidString, firstName: names.first, lastName: names.last, age: names.age
                )
                .insert(db)
            }
        }
    }

    static func createMapped(_ queue: DatabaseQueue, count: Int) throws {
        try queue.write { db in
            for index in 0..<count {
                let names = PlainUser.names(index)
                try MappedUser(
                    id: UUID().uuidString, firstName: names.first, lastName: names.last, age: names.age
                )
                .insert(db)
            }
        }
    }

    static func userCount(_ queue: DatabaseQueue) throws -> Int {
        try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM users") ?? 0 }
    }
}
