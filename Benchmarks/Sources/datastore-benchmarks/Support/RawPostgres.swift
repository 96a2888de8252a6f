import CPQ
import Foundation

/// The baseline's PostgreSQL access: libpq called by hand, as an app without this package would.
final class RawPostgres {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let connection: OpaquePointer

    init(_ connectionString: String) throws {
        guard let connection = PQconnectdb(connectionString), PQstatus(connection) == CONNECTION_OK else {
            throw Failure(description: "cannot connect to \(connectionString)")
        }
        self.connection = connection
    }

    deinit { PQfinish(connection) }

    /// Runs one statement with text parameters and returns the rows as text.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String] = []) throws -> [[String]] {
        var storage: [UnsafeMutablePointer<CChar>?] = parameters.map { strdup($0) }
        defer { for pointer in storage { free(pointer) } }
        let result = storage.withUnsafeMutableBufferPointer { buffer in
            let pointers = buffer.map { UnsafePointer($0) }
            return PQexecParams(connection, sql, Int32(parameters.count), nil, pointers, nil, nil, 0)
        }
        guard let result else { throw Failure(description: String(cString: PQerrorMessage(connection))) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw Failure(description: String(cString: PQerrorMessage(connection)))
        }
        var rows: [[String]] = []
        for row in 0..<PQntuples(result) {
            rows.append((0..<PQnfields(result)).map { String(cString: PQgetvalue(result, row, $0)) })
        }
        return rows
    }
}
