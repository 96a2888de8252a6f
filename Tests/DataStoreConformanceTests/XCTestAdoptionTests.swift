import DataStoreConformance
import InMemoryStorage
import XCTest

/// The suite runs the same under XCTest: one method, every check, failures collected.
final class XCTestAdoptionTests: XCTestCase {
    func testInMemoryStorePassesEveryCheck() async {
        let failures = await DataStoreConformance.runAll(capabilities: [.historyUpdates]) {
            try InMemoryDataStore(.init(name: $0.storeName, schema: $0.schema))
        }
        XCTAssertEqual(failures, [], failures.map(\.description).joined(separator: "\n"))
    }

    func testASabotagedStoreFailsUnderXCTestToo() async {
        let failures = await DataStoreConformance.runAll {
            try SabotagedStore(
                SabotagedStoreConfiguration(
                    name: $0.storeName, schema: $0.schema, sabotage: .changesReordered))
        }
        XCTAssertTrue(failures.contains { $0.check == .changesInRequestOrder }, "\(failures.map(\.check))")
    }
}
