import DataStoreCore
import InMemoryStorage
import StoreTestSupport
import Testing

/// The conflict table (Docs/Sync.md), one test case per row, with an in-memory server;
/// `PostgresSyncConflictTableTests` runs the same rows against PostgreSQL.
@Suite struct SyncConflictTableTests {
    let table = SyncConflictTable { schema in try InMemoryDataStore(.init(name: "server", schema: schema)) }

    @Test(arguments: SyncConflictRow.allCases)
    func row(_ row: SyncConflictRow) throws {
        let problems = try row.check(table)
        #expect(problems.isEmpty, "\(problems)")
    }
}
