import Foundation

/// The SQLite C API used directly, each column mapped by hand: the fastest a Swift program reads and writes
/// SQLite, and the floor the other peers are measured from.
enum RawSQLitePeers {
    static let selectOrders = """
        SELECT OrderID, CustomerID, EmployeeID, OrderDate, RequiredDate, ShippedDate, ShipVia, Freight, ShipName,
            ShipAddress, ShipCity, ShipRegion, ShipPostalCode, ShipCountry FROM Orders
        """

    /// Writes `orders` into a new `Orders` table in one transaction.
    static func populate(_ database: SQLiteDatabase, _ orders: [PlainOrder]) throws {
        try database.execute(PlainOrder.createTable)
        try database.execute("BEGIN")
        let insert = try database.prepare(
            "INSERT INTO Orders VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for order in orders {
            insert.reset()
            insert.bind(1, order.orderID)
            let texts: [(Int32, String?)] = [
                (2, order.customerID), (4, order.orderDate), (5, order.requiredDate), (6, order.shippedDate),
                (9, order.shipName), (10, order.shipAddress), (11, order.shipCity), (12, order.shipRegion),
                (13, order.shipPostalCode), (14, order.shipCountry),
            ]
            for (index, text) in texts {
                if let text { insert.bind(index, text) } else { insert.bindNull(index) }
            }
            if let employee = order.employeeID { insert.bind(3, employee) } else { insert.bindNull(3) }
            if let shipVia = order.shipVia { insert.bind(7, shipVia) } else { insert.bindNull(7) }
            if let freight = order.freight { insert.bind(8, freight) } else { insert.bindNull(8) }
            _ = try insert.step()
        }
        try database.execute("COMMIT")
    }

    /// Every order, each column read by index into a struct.
    static func load(_ database: SQLiteDatabase) throws -> [PlainOrder] {
        let select = try database.prepare(selectOrders)
        var orders: [PlainOrder] = []
        while try select.step() {
            func text(_ column: Int32) -> String? { select.isNull(column) ? nil : select.text(column) }
            func integer(_ column: Int32) -> Int64? { select.isNull(column) ? nil : select.int64(column) }
            orders.append(
                PlainOrder(
                    orderID: select.int64(0), customerID: text(1), employeeID: integer(2), orderDate: text(3),
                    requiredDate: text(4), shippedDate: text(5), shipVia: integer(6),
                    freight: select.isNull(7) ? nil : select.double(7), shipName: text(8),
                    shipAddress: text(9),
                    shipCity: text(10), shipRegion: text(11), shipPostalCode: text(12), shipCountry: text(13))
            )
        }
        return orders
    }

    /// Creates `count` users in one transaction with a prepared statement.
    static func createUsers(_ database: SQLiteDatabase, count: Int) throws {
        try database.execute("BEGIN")
        let insert = try database.prepare("INSERT INTO users VALUES (?, ?, ?, ?)")
        for index in 0..<count {
            let names = PlainUser.names(index)
            insert.reset()
            insert.bind(1, UUID().uuidString)
            insert.bind(2, names.first)
            insert.bind(3, names.last)
            insert.bind(4, names.age)
            _ = try insert.step()
        }
        try database.execute("COMMIT")
    }

    static func userCount(_ database: SQLiteDatabase) throws -> Int {
        let count = try database.prepare("SELECT count(*) FROM users")
        _ = try count.step()
        return Int(count.int64(0))
    }
}
