import DataStoreCore
import DataStoreModels
import Foundation
import JSONFileStorage
import StoreTestSupport
import Testing
import TimeSeriesStorage

/// Version 1 of a reading: `body` and `tag`.
struct ReadingV1: PersistentModel {
    static var entityName: String { "Reading" }
    static let schemaAttributes: [ModelAttribute<ReadingV1>] = [
        .attribute("title", \.title), .attribute("body", \.body), .attribute("tag", \.tag),
        .attribute("timestamp", \.timestamp),
    ]
    var persistentModelID = PersistentIdentifier()
    var title = ""
    var body = ""
    var tag = ""
    var timestamp = Date(timeIntervalSinceReferenceDate: 0)
    init() {}
    init(_ index: Int) {
        title = "r\(index)"
        body = "body \(index)"
        tag = "t\(index)"
        timestamp = Date().addingTimeInterval(Double(index) - 60)
    }
}

/// Version 1 as a newer build of the app has it, unversioned: one attribute added (`note`).
struct ReadingV1Noted: PersistentModel {
    static var entityName: String { "Reading" }
    static let schemaAttributes: [ModelAttribute<ReadingV1Noted>] = [
        .attribute("title", \.title), .attribute("body", \.body), .attribute("tag", \.tag),
        .attribute("timestamp", \.timestamp), .attribute("note", \.note),
    ]
    var persistentModelID = PersistentIdentifier()
    var title = ""
    var body = ""
    var tag = ""
    var timestamp = Date(timeIntervalSinceReferenceDate: 0)
    var note = ""
    init() {}
}

/// Version 2: `body` renamed to `text`, `tag` removed, `pinned` added with a default, `rating` added optional.
struct ReadingV2: PersistentModel {
    static var entityName: String { "Reading" }
    static let schemaAttributes: [ModelAttribute<ReadingV2>] = [
        .attribute("title", \.title), .attribute("text", \.text, originalName: "body"),
        .attribute("pinned", \.pinned), .attribute("rating", \.rating), .attribute("timestamp", \.timestamp),
    ]
    var persistentModelID = PersistentIdentifier()
    var title = ""
    var text = ""
    var pinned = true
    var rating: Int?
    var timestamp = Date(timeIntervalSinceReferenceDate: 0)
    init() {}
}

/// Version 3, unsafe: `title` becomes a number.
struct ReadingV3: PersistentModel {
    static var entityName: String { "Reading" }
    static let schemaAttributes: [ModelAttribute<ReadingV3>] = [
        .attribute("title", \.title), .attribute("timestamp", \.timestamp),
    ]
    var persistentModelID = PersistentIdentifier()
    var title = 0
    var timestamp = Date(timeIntervalSinceReferenceDate: 0)
    init() {}
}

/// Lightweight changes, unsafe changes and instances left on an old schema, on both file backends.
@Suite struct SchemaEvolutionTests {
    enum Backend: String, CaseIterable { case jsonFile, timeSeries }

    func configuration(_ backend: Backend, _ directory: URL, readOnly: Bool = false) -> ModelConfiguration {
        switch backend {
        case .jsonFile:
            ModelConfiguration(
                JSONFileStoreConfiguration(name: "readings", directory: directory, isReadOnly: readOnly))
        case .timeSeries:
            ModelConfiguration(
                TimeSeriesStoreConfiguration(name: "readings", directory: directory, isReadOnly: readOnly))
        }
    }

    /// Every file's bytes, to show that a refused open wrote nothing.
    func fingerprint(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let name = enumerator?.nextObject() as? String {
            let url = directory.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
                !isDirectory.boolValue, !isLockFile(name)
            {
                files[name] = try Data(contentsOf: url)
            }
        }
        return files
    }

    /// Issue 37, item 12: an older build of the app (its schema unversioned, as `ModelContainer(for:)` makes it)
    /// opening a store that a newer build gave an attribute is refused, naming the attribute, instead of
    /// dropping the newer build's values; the newer build still finds them.
    @Test(arguments: Backend.allCases)
    func anOlderUnversionedBuildCannotDropAnAttributeANewerBuildAdded(_ backend: Backend) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "evolution-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let newer = try ModelContainer(
                for: [ReadingV1Noted.self], configurations: [configuration(backend, directory)])
            var reading = ReadingV1Noted()
            reading.title = "r0"
            reading.note = "keep me"
            reading.timestamp = Date().addingTimeInterval(-60)
            let context = ModelContext(newer)
            context.insert(reading)
            try context.save()
        }
        let before = try fingerprint(directory)
        #expect {
            try ModelContainer(for: [ReadingV1.self], configurations: [configuration(backend, directory)])
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .incompatibleSchema else {
                return false
            }
            return error.entity == "Reading" && error.attribute == "note"
        }
        #expect(try fingerprint(directory) == before)
        let newer = try ModelContainer(
            for: [ReadingV1Noted.self], configurations: [configuration(backend, directory)])
        #expect(try ModelContext(newer).fetch(FetchDescriptor<ReadingV1Noted>()).map(\.note) == ["keep me"])
    }

    @Test(arguments: Backend.allCases)
    func lightweightChangesKeepEveryRowAndHistory(_ backend: Backend) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "evolution-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let container = try ModelContainer(
                for: [ReadingV1.self], configurations: [configuration(backend, directory)])
            let context = ModelContext(container)
            for index in 0..<3 {
                context.insert(ReadingV1(index))
                try context.save()
            }
        }
        // An instance still open under version 1 while version 2 migrates the store.
        let old = try ModelContainer(
            for: [ReadingV1.self], configurations: [configuration(backend, directory)])

        // Version 2 drops `tag`, which holds values: it says so by declaring its version.
        let container = try ModelContainer(
            for: Schema([ReadingV2.self], version: Schema.Version(2, 0, 0)),
            configurations: [configuration(backend, directory)])
        let readings = try ModelContext(container).fetch(
            FetchDescriptor<ReadingV2>(sortBy: [SortDescriptor(\.title)]))
        #expect(readings.map(\.title) == ["r0", "r1", "r2"])
        #expect(readings.map(\.text) == ["body 0", "body 1", "body 2"])
        #expect(readings.allSatisfy { $0.pinned && $0.rating == nil })
        let history = try ModelContext(container).fetchHistory(HistoryDescriptor())
        #expect(history.count == 3)

        // The old instance does not misread the new rows.
        #expect {
            try ModelContext(old).fetch(FetchDescriptor<ReadingV1>())
        } throws: { ($0 as? DataStoreError)?.code == .schemaChanged }

        // Reopening under version 2 writes nothing; a read-only open under version 1 is refused.
        let settled = try fingerprint(directory)
        _ = try ModelContainer(
            for: Schema([ReadingV2.self], version: Schema.Version(2, 0, 0)),
            configurations: [configuration(backend, directory)])
        #expect(try fingerprint(directory) == settled)
        #expect {
            try ModelContainer(
                for: [ReadingV1.self], configurations: [configuration(backend, directory, readOnly: true)])
        } throws: { ($0 as? DataStoreError)?.code == .incompatibleSchema }

        // An unsafe change names the entity and attribute, and writes nothing.
        #expect {
            try ModelContainer(for: [ReadingV3.self], configurations: [configuration(backend, directory)])
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .incompatibleSchema else {
                return false
            }
            return error.entity == "Reading" && error.attribute == "title"
        }
        #expect(try fingerprint(directory) == settled)
    }
}
