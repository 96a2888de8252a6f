import Synchronization
import Testing

@testable import DataStoreCore

/// The table that connects models to their context's change log drops the entries of contexts that are gone
/// when it grows. The sweep runs before a batch's entries go in; the batch that sets it off, and every model
/// of a live context, must still report to their logs afterwards, and a model whose log is gone to none.
@Suite struct ModelChangeTrackingSweepTests {
    final class Marker: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Marker>] = [.attribute("name", \.name)]
        var persistentModelID = PersistentIdentifier()
        @Attribute var name = ""
        init() {}

        static func batch(_ count: Int, _ prefix: String) -> [Marker] {
            (0..<count).map { index in
                let marker = Marker()
                marker.persistentModelID = PersistentIdentifier(
                    storeIdentifier: "s", entityName: "Marker", primaryKey: "\(prefix)\(index)")
                return marker
            }
        }
    }

    @Test func aSweepKeepsTheEntriesOfLiveLogsAndOfTheBatchThatSetItOff() {
        let live = ModelChangeLog()
        let kept = Marker.batch(500, "live")
        ModelChangeTracking.track(kept, in: live)
        // Every model stays alive to the end, so that no address is reused for another model.
        var everyModel: [Marker] = kept
        var gone: [Marker] = []
        let sweepsBefore = ModelChangeTracking.sweeps.load(ordering: .relaxed)
        var swept = false
        // Other tests share the table, so the point at which a sweep runs is not known: batches for logs that
        // go away are tracked until one has run (each at least doubles what the last sweep left).
        for round in 0..<200 where !swept {
            let log = ModelChangeLog()
            let batch = Marker.batch(2_000, "r\(round)-")
            everyModel += batch
            ModelChangeTracking.track(batch, in: log)
            swept = ModelChangeTracking.sweeps.load(ordering: .relaxed) > sweepsBefore
            // The batch tracked in the call that swept reports to its log.
            batch[1_999].name = "noted"
            #expect(log.changed == [batch[1_999].persistentModelID])
            if round == 0 { gone = batch }
        }
        #expect(swept)
        // The live log's models were tracked before the sweep, and still report to it.
        kept[0].name = "first"
        kept[499].name = "last"
        #expect(live.changed == [kept[0].persistentModelID, kept[499].persistentModelID])
        // A model whose log is gone reports nowhere (and does not crash).
        gone[0].name = "unheard"
        #expect(live.changed.count == 2)
        withExtendedLifetime(everyModel) {}
    }
}
