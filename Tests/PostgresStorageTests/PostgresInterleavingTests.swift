import DataStoreModels

#if PostgreSQL
    import DataStoreCore
    import Foundation
    import PostgresStorage
    import SampleTrips
    import StoreTestSupport
    import Testing

    /// `TripInterleaving` on PostgreSQL: two contexts in this process and two helper processes, each on its own
    /// connections, edit the same trips from stale views in random interleavings; after every step the stored
    /// graph must be consistent, refused saves and rollbacks must change nothing, and deletes must take exactly
    /// what they own (`RelationshipInterleavingTests` runs the same on JSON file stores).
    @Suite struct PostgresInterleavingTests {
        @Test func twoContextsAndTwoProcessesKeepTheStoredGraphConsistent() throws {
            let seeds = 40
            let interleaving = TripInterleaving<Trip> { _ in
                let namespace = PostgresServer.freshNamespace("il")
                let container = try PostgresChangeSetTests.container(namespace)
                return (container, "open-postgres \(namespace)")
            }
            let problems = try interleaving.run(seeds: 0..<seeds)
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
            let counts = interleaving.counts
            #expect(
                counts.refused > 0 && counts.cascades > seeds / 2 && counts.purges > seeds / 2, "\(counts)")
            #expect(counts.reversals > seeds / 2 && counts.clears > seeds / 2, "\(counts)")
        }
    }
#endif
