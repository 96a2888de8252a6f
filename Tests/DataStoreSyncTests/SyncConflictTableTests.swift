import DataStoreCore
import InMemoryStorage
import StoreTestSupport
import Testing

/// The conflict table (Docs/Sync.md), one test per row, with an in-memory server; `PostgresSyncConflictTableTests`
/// runs the same rows against PostgreSQL.
@Suite struct SyncConflictTableTests {
    let table = SyncConflictTable { schema in try InMemoryDataStore(.init(name: "server", schema: schema)) }

    @Test func differentAttributesBothSurvive() throws {
        let problems = try table.differentAttributesBothSurvive()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func sameAttributeLaterPushWins() throws {
        let problems = try table.sameAttributeLaterPushWins()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func resolverSeesBaseLocalAndRemote() throws {
        let problems = try table.resolverSeesBaseLocalAndRemote()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func attributeWithoutPreviousValuesLaterPushWins() throws {
        let problems = try table.attributeWithoutPreviousValuesLaterPushWins()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func deleteBeatsConcurrentUpdate() throws {
        let problems = try table.deleteBeatsConcurrentUpdate()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func updateOfADeletedModelIsDropped() throws {
        let problems = try table.updateOfADeletedModelIsDropped()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func uniqueNameCollisionMergesIntoTheFirstModel() throws {
        let problems = try table.uniqueNameCollisionMergesIntoTheFirstModel()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func linkToAModelDeletedElsewhereIsDropped() throws {
        let problems = try table.linkToAModelDeletedElsewhereIsDropped()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func aQuietRoundTransfersNothing() throws {
        let problems = try table.aQuietRoundTransfersNothing()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func anExpiredPullTokenResynchronisesAndKeepsUnpushedWork() throws {
        let problems = try table.anExpiredPullTokenResynchronisesAndKeepsUnpushedWork()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func anExpiredPushTokenUploadsTheDeviceWhole() throws {
        let problems = try table.anExpiredPushTokenUploadsTheDeviceWhole()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func anErasedServerGetsTheDevicesModelsBack() throws {
        let problems = try table.anErasedServerGetsTheDevicesModelsBack()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func anErasedDeviceGetsEverythingBack() throws {
        let problems = try table.anErasedDeviceGetsEverythingBack()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func anOlderDeviceKeepsAttributesItDoesNotKnow() throws {
        let problems = try table.anOlderDeviceKeepsAttributesItDoesNotKnow()
        #expect(problems.isEmpty, "\(problems)")
    }
}
