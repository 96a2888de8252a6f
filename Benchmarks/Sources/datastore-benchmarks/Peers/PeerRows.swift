import DataStoreCore
import Foundation

/// One row of the Northwind `Orders` table, the shape Lighter's performance suite loads: fourteen columns,
/// most of them optional text. Every library's result is mapped to this for the same-result check (untimed).
struct PlainOrder: Hashable, Sendable, Codable {
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

    /// Northwind's column names, for GRDB's `Codable` records.
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

    /// The SQL table both SQLite peers read.
    static let createTable = """
        CREATE TABLE Orders (OrderID INTEGER PRIMARY KEY, CustomerID TEXT, EmployeeID INTEGER, OrderDate TEXT,
            RequiredDate TEXT, ShippedDate TEXT, ShipVia INTEGER, Freight REAL, ShipName TEXT, ShipAddress TEXT,
            ShipCity TEXT, ShipRegion TEXT, ShipPostalCode TEXT, ShipCountry TEXT)
        """

    /// `count` orders shaped like Northwind's (15,889 rows there): a few hundred customers, nine employees,
    /// three shippers, dates as text, and the columns Northwind leaves empty (shipped date, region, postal code)
    /// empty in some rows. Deterministic, so every library holds the same rows.
    static func northwind(count: Int) -> [PlainOrder] {
        let countries = [
            "France", "Germany", "Brazil", "Belgium", "Switzerland", "Venezuela", "Austria", "Mexico",
        ]
        let cities = [
            "Reims", "Münster", "Rio de Janeiro", "Lyon", "Charleroi", "Bern", "Genève", "Graz",
            "México D.F.",
        ]
        return (0..<count).map { index in
            let day = index % 28 + 1
            let month = index / 28 % 12 + 1
            let year = 2012 + index / 336 % 12
            func date(_ offset: Int) -> String {
                String(
                    format: "%04d-%02d-%02d %02d:%02d:%02d", year, month, min(day + offset, 28), index % 24,
                    index % 60, index * 7 % 60)
            }
            return PlainOrder(
                orderID: Int64(10_248 + index),
                customerID: "C\(String(index * 37 % 91, radix: 36).uppercased())XYZ",
                employeeID: Int64(index % 9 + 1), orderDate: date(0), requiredDate: date(14),
                shippedDate: index % 13 == 0 ? nil : date(3), shipVia: Int64(index % 3 + 1),
                freight: Double(index * 7919 % 100_000) / 100,
                shipName: "Ship to \(index % 91) \(cities[index % cities.count])",
                shipAddress: "\(index % 400 + 1) Rue de l'Abbaye", shipCity: cities[index % cities.count],
                shipRegion: index % 3 == 0 ? "Region \(index % 17)" : nil,
                shipPostalCode: index % 11 == 0 ? nil : String(10_000 + index * 31 % 89_999),
                shipCountry: countries[index % countries.count])
        }
    }
}

/// One of the simple users the RealmVsSwiftData suite creates: an identifier, two names and an age.
struct PlainUser: Hashable, Sendable {
    var id: String
    var firstName: String
    var lastName: String
    var age: Int64

    static let createTable =
        "CREATE TABLE users (id TEXT PRIMARY KEY, firstName TEXT, lastName TEXT, age INTEGER)"

    /// The names the users draw from; each library's timed loop builds its users (identifier included) itself.
    static let firstNames = ["Jane", "John", "Wendy", "Omar", "Mei", "Ana", "Luca", "Priya", "Kofi", "Sven"]
    static let lastNames = ["Smith", "Bauer", "Rossi", "Tanaka", "Silva", "Okafor", "Dubois", "Nowak"]

    /// User `index`'s names and age (its identifier is a fresh UUID, as in the suite).
    static func names(_ index: Int) -> (first: String, last: String, age: Int64) {
        (
            firstNames[index % firstNames.count], lastNames[index / 10 % lastNames.count],
            Int64(18 + index % 60)
        )
    }
}

/// The order as this package's model, declared as the README recommends: `@Attribute` properties, which
/// report their changes (as SwiftData's `@Model` observes its properties).
final class PeerOrder: PersistentModel {
    static let schemaAttributes: [ModelAttribute<PeerOrder>] = [
        .attribute("orderID", \.orderID), .attribute("customerID", \.customerID),
        .attribute("employeeID", \.employeeID), .attribute("orderDate", \.orderDate),
        .attribute("requiredDate", \.requiredDate), .attribute("shippedDate", \.shippedDate),
        .attribute("shipVia", \.shipVia), .attribute("freight", \.freight),
        .attribute("shipName", \.shipName),
        .attribute("shipAddress", \.shipAddress), .attribute("shipCity", \.shipCity),
        .attribute("shipRegion", \.shipRegion), .attribute("shipPostalCode", \.shipPostalCode),
        .attribute("shipCountry", \.shipCountry),
    ]
    var persistentModelID = PersistentIdentifier()
    @Attribute var orderID: Int64 = 0
    @Attribute var customerID: String? = nil
    @Attribute var employeeID: Int64? = nil
    @Attribute var orderDate: String? = nil
    @Attribute var requiredDate: String? = nil
    @Attribute var shippedDate: String? = nil
    @Attribute var shipVia: Int64? = nil
    @Attribute var freight: Double? = nil
    @Attribute var shipName: String? = nil
    @Attribute var shipAddress: String? = nil
    @Attribute var shipCity: String? = nil
    @Attribute var shipRegion: String? = nil
    @Attribute var shipPostalCode: String? = nil
    @Attribute var shipCountry: String? = nil
    init() {}

    convenience init(_ order: PlainOrder) {
        self.init()
        orderID = order.orderID
        customerID = order.customerID
        employeeID = order.employeeID
        orderDate = order.orderDate
        requiredDate = order.requiredDate
        shippedDate = order.shippedDate
        shipVia = order.shipVia
        freight = order.freight
        shipName = order.shipName
        shipAddress = order.shipAddress
        shipCity = order.shipCity
        shipRegion = order.shipRegion
        shipPostalCode = order.shipPostalCode
        shipCountry = order.shipCountry
    }

    var plain: PlainOrder {
        PlainOrder(
            orderID: orderID, customerID: customerID, employeeID: employeeID, orderDate: orderDate,
            requiredDate: requiredDate, shippedDate: shippedDate, shipVia: shipVia, freight: freight,
            shipName: shipName, shipAddress: shipAddress, shipCity: shipCity, shipRegion: shipRegion,
            shipPostalCode: shipPostalCode, shipCountry: shipCountry)
    }
}

/// The simple user as this package's model.
final class PeerUser: PersistentModel {
    static let schemaAttributes: [ModelAttribute<PeerUser>] = [
        .attribute("id", \.id), .attribute("firstName", \.firstName), .attribute("lastName", \.lastName),
        .attribute("age", \.age),
    ]
    var persistentModelID = PersistentIdentifier()
    @Attribute var id = ""
    @Attribute var firstName = ""
    @Attribute var lastName = ""
    @Attribute var age: Int64 = 0
    init() {}
}
