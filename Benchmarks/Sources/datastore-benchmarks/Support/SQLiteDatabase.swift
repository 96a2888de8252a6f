import CSQLite
import Foundation

/// A minimal SQLite connection for the baselines: WAL mode, `synchronous=FULL`, prepared statements.
final class SQLiteDatabase {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private var handle: OpaquePointer?

    init(path: String) throws {
        guard sqlite3_open(path, &handle) == SQLITE_OK else {
            throw Failure(description: "cannot open \(path)")
        }
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=FULL")
    }

    deinit {
        sqlite3_close(handle)
    }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "unknown"
            sqlite3_free(message)
            throw Failure(description: "\(sql): \(text)")
        }
    }

    final class Statement {
        let pointer: OpaquePointer?
        init(_ pointer: OpaquePointer?) { self.pointer = pointer }
        deinit { sqlite3_finalize(pointer) }

        func reset() {
            sqlite3_reset(pointer)
            sqlite3_clear_bindings(pointer)
        }
        func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(pointer, index, value) }
        func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(pointer, index, value) }
        func bind(_ index: Int32, _ value: String) {
            // SQLITE_TRANSIENT: SQLite copies the text.
            sqlite3_bind_text(pointer, index, value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
        /// Steps once; returns whether a row is available.
        func step() throws -> Bool {
            switch sqlite3_step(pointer) {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            default:
                throw Failure(
                    description: "step failed: \(String(cString: sqlite3_errmsg(sqlite3_db_handle(pointer))))"
                )
            }
        }
        func bindNull(_ index: Int32) { sqlite3_bind_null(pointer, index) }
        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(pointer, column) == SQLITE_NULL }
        func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(pointer, column) }
        func double(_ column: Int32) -> Double { sqlite3_column_double(pointer, column) }
        func text(_ column: Int32) -> String {
            sqlite3_column_text(pointer, column).map { String(cString: $0) } ?? ""
        }
    }

    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw Failure(description: "prepare \(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        return Statement(statement)
    }
}
