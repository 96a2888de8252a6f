import Testing

@testable import DataStoreCore

/// How an `@Attribute` property reaches its storage: at the storage's offset in the instance (measured once per
/// key path, `StorageOffsets`), seen the same way through the key path, and reported to the tracking context.
@Suite struct AttributeStorageTests {
    /// A model whose `init()` sets its attributes: measuring the storage's offset makes instances, whose
    /// `init()` writes the attribute while it is being measured.
    final class Buoy: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Buoy>] = [
            .attribute("label", \.label), .attribute("depth", \.depth),
        ]
        var persistentModelID = PersistentIdentifier()
        @Attribute var label = ""
        @Attribute var depth: Double? = nil
        init() { label = "unnamed" }

        static var labelStorage: ReferenceWritableKeyPath<Buoy, Attribute<String>> { \._label }
        static var depthStorage: ReferenceWritableKeyPath<Buoy, Attribute<Double?>> { \._depth }
    }

    @Test func anAttributeIsReadAndWrittenAtItsStorageOffset() {
        let buoy = Buoy()
        #expect(buoy.label == "unnamed")
        #expect(StorageOffsets.offset(of: Buoy.labelStorage) != nil)
        #expect(StorageOffsets.offset(of: Buoy.depthStorage) != nil)
        // A write at the offset is what the key path sees, and the other way round.
        buoy.label = "North Cardinal"
        buoy.depth = 12.5
        #expect(buoy[keyPath: Buoy.labelStorage].value == "North Cardinal")
        #expect(buoy[keyPath: Buoy.depthStorage].value == 12.5)
        buoy[keyPath: Buoy.labelStorage] = Attribute(wrappedValue: "South Cardinal")
        buoy[keyPath: Buoy.depthStorage] = Attribute(wrappedValue: nil)
        #expect(buoy.label == "South Cardinal")
        #expect(buoy.depth == nil)
        // Each instance has its own storage.
        let other = Buoy()
        other.label = "Isolated Danger"
        #expect(buoy.label == "South Cardinal")
        #expect(other.label == "Isolated Danger")
    }

    @Test func aWriteAtTheOffsetIsReportedToTheTrackingLog() {
        let buoy = Buoy()
        buoy.persistentModelID = PersistentIdentifier(
            storeIdentifier: "s", entityName: "Buoy", primaryKey: "b1")
        let log = ModelChangeLog()
        ModelChangeTracking.track(buoy, in: log)
        #expect(log.changed.isEmpty)
        buoy.depth = 3
        #expect(log.changed == [buoy.persistentModelID])
        ModelChangeTracking.untrack(buoy, from: log)
    }
}
