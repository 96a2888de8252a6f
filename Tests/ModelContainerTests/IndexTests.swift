import DataStoreCore
import DataStoreKit
import DataStoreModels
import Foundation
import InMemoryStorage
import JSONFileStorage
import Testing

/// A model with SwiftData-style indexes: `#Index<IndexedNote>([\.category], [\.priority, \.title])`.
final class IndexedNote: PersistentModel {
    static let schemaAttributes: [ModelAttribute<IndexedNote>] = [
        .attribute("title", \.title), .attribute("category", \.category), .attribute("priority", \.priority),
    ]
    static var indexes: [[PartialKeyPath<IndexedNote>]] { [[\.category], [\.priority, \.title]] }
    var persistentModelID = PersistentIdentifier()
    var title = ""
    var category = ""
    var priority = 0
    init() {}
    init(title: String, category: String, priority: Int) {
        self.title = title
        self.category = category
        self.priority = priority
    }
}

/// Declares an index on something that is not an attribute.
final class BadlyIndexedNote: PersistentModel {
    static let schemaAttributes: [ModelAttribute<BadlyIndexedNote>] = [.attribute("title", \.title)]
    static var indexes: [[PartialKeyPath<BadlyIndexedNote>]] { [[\.persistentModelID]] }
    var persistentModelID = PersistentIdentifier()
    var title = ""
    init() {}
}

/// Equality on an indexed attribute is answered from the index, by the stores' own counters.
@Suite struct IndexTests {
    func note(_ index: Int) -> IndexedNote {
        IndexedNote(title: "n\(index)", category: "c\(index % 1_000)", priority: index % 10)
    }

    /// An in-memory store holding `count` notes made by `make`, and a fresh context on it.
    func populatedStore(_ count: Int, _ make: (Int) -> IndexedNote) throws -> (
        InMemoryDataStore, ModelContext
    ) {
        let store = try InMemoryDataStore(.init(name: "notes", schema: Schema([IndexedNote.self])))
        let container = try ModelContainer(
            for: [IndexedNote.self], configurations: [ModelConfiguration(store: store)])
        let context = ModelContext(container)
        for index in 0..<count { context.insert(make(index)) }
        try context.save()
        return (store, ModelContext(container))
    }

    @Test func anIndexedEqualityExaminesOnlyTheMatchingModels() throws {
        let store = try InMemoryDataStore(.init(name: "notes", schema: Schema([IndexedNote.self])))
        let container = try ModelContainer(
            for: [IndexedNote.self], configurations: [ModelConfiguration(store: store)])
        let context = ModelContext(container)
        for index in 0..<100_000 { context.insert(note(index)) }
        try context.save()

        let fresh = ModelContext(container)
        var before = store.modelsExamined
        let matches = try fresh.fetch(
            FetchDescriptor<IndexedNote>(predicate: #Predicate { $0.category == "c7" }))
        #expect(matches.count == 100)
        #expect(matches.allSatisfy { $0.category == "c7" })
        #expect(store.modelsExamined - before == 100)

        // The first attribute of a compound index, with a further condition evaluated on the candidates.
        before = store.modelsExamined
        let urgent = try fresh.fetchCount(
            FetchDescriptor<IndexedNote>(
                predicate: #Predicate { $0.priority == 3 && $0.title != "n3" }))
        #expect(urgent == 9_999)
        #expect(store.modelsExamined - before == 10_000)

        // Not indexed: every model is examined.
        before = store.modelsExamined
        _ = try fresh.fetchCount(FetchDescriptor<IndexedNote>(predicate: #Predicate { $0.title == "n5" }))
        #expect(store.modelsExamined - before == 100_000)
    }

    @Test func anInOnAnIndexedAttributeExaminesOnlyTheMatchingModels() throws {
        let (store, fresh) = try populatedStore(5_000, note)
        let wanted = ["c7", "c42", "c999", "absent"]
        var before = store.modelsExamined
        let matches = try fresh.fetch(
            FetchDescriptor<IndexedNote>(predicate: #Predicate { wanted.contains($0.category) }))
        #expect(matches.count == 15)
        #expect(Set(matches.map(\.category)) == ["c7", "c42", "c999"])
        #expect(store.modelsExamined - before == 15)

        // Not indexed: the same shape of predicate examines every model, with the same answer shape.
        let titles = ["n1", "n2"]
        before = store.modelsExamined
        #expect(
            try fresh.fetchCount(
                FetchDescriptor<IndexedNote>(predicate: #Predicate { titles.contains($0.title) })) == 2)
        #expect(store.modelsExamined - before == 5_000)
    }

    @Test func aRangeOnAnIndexedAttributeExaminesOnlyTheModelsInIt() throws {
        let (store, fresh) = try populatedStore(5_000) {
            IndexedNote(title: "n\($0)", category: "c\($0 % 100)", priority: $0 % 1_000)
        }
        var before = store.modelsExamined
        let band = try fresh.fetch(
            FetchDescriptor<IndexedNote>(
                predicate: #Predicate { $0.priority >= 10 && $0.priority < 13 },
                sortBy: [SortDescriptor(\.title)]))
        #expect(band.count == 15)
        #expect(band.allSatisfy { (10..<13).contains($0.priority) })
        #expect(store.modelsExamined - before == 15)

        // One bound; an edit moves a model into the range.
        let top = try #require(
            try fresh.fetch(FetchDescriptor<IndexedNote>(predicate: #Predicate { $0.priority == 5 })).first)
        top.priority = 2_000
        try fresh.save()
        before = store.modelsExamined
        let high = try fresh.fetch(FetchDescriptor<IndexedNote>(predicate: #Predicate { $0.priority > 998 }))
        #expect(Set(high.map(\.priority)) == [999, 2_000])
        #expect(high.count == 6)
        #expect(store.modelsExamined - before == 6)
    }

    @Test func aSortedFetchWithALimitExaminesOnlyTheFirstValues() throws {
        let (store, fresh) = try populatedStore(5_000) {
            IndexedNote(title: "n\($0)", category: "c", priority: $0)
        }
        let before = store.modelsExamined
        let newest = try fresh.fetch(
            FetchDescriptor<IndexedNote>(sortBy: [SortDescriptor(\.priority, order: .reverse)], fetchLimit: 3)
        )
        #expect(newest.map(\.priority) == [4_999, 4_998, 4_997])
        #expect(store.modelsExamined - before == 3)
    }

    @Test func theJSONFileStoreKeepsItsIndexesAcrossReopeningAndEdits() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "index-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = JSONFileStoreConfiguration(
            name: "notes", schema: Schema([IndexedNote.self]), directory: directory, durability: .relaxed)
        do {
            let store = try JSONFileDataStore(configuration)
            let context = ModelContext(
                try ModelContainer(
                    for: [IndexedNote.self], configurations: [ModelConfiguration(store: store)]))
            for index in 0..<20_000 { context.insert(note(index)) }
            try context.save()
            // Edits move models between index entries.
            for moved in try context.fetch(
                FetchDescriptor<IndexedNote>(predicate: #Predicate { $0.category == "c1" }))
            {
                moved.category = "c2"
            }
            try context.save()
        }
        let store = try JSONFileDataStore(configuration)
        let context = ModelContext(
            try ModelContainer(for: [IndexedNote.self], configurations: [ModelConfiguration(store: store)]))
        let before = store.statistics.modelsExamined
        #expect(
            try context.fetchCount(
                FetchDescriptor<IndexedNote>(predicate: #Predicate { $0.category == "c1" })) == 0)
        #expect(
            try context.fetchCount(
                FetchDescriptor<IndexedNote>(predicate: #Predicate { $0.category == "c2" })) == 40)
        #expect(store.statistics.modelsExamined - before == 40)
    }

    @Test(arguments: 0..<100)
    func indexedFetchesEqualAFullScan(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var table = SnapshotTable(storeIdentifier: "notes", schema: Schema([IndexedNote.self]))
        var inserted: [PersistentIdentifier] = []
        for index in 0..<Int.random(in: 0...200, using: &random) {
            let id = PersistentIdentifier(
                storeIdentifier: "notes", entityName: "IndexedNote", primaryKey: "\(index)")
            let model = IndexedNote(
                title: "t\(Int.random(in: 0..<20, using: &random))",
                category: "c\(Int.random(in: 0..<5, using: &random))",
                priority: Int.random(in: 0..<4, using: &random))
            table.apply(PlannedChange(kind: .insert, identifier: id, values: model.snapshotValues))
            inserted.append(id)
        }
        // Random edits and deletes, so that index entries move and disappear.
        for id in inserted where Int.random(in: 0..<4, using: &random) == 0 {
            if Bool.random(using: &random) {
                table.apply(PlannedChange(kind: .delete, identifier: id, values: [:]))
            } else {
                // Indexed attributes, the unindexed title, or both: only the first move index entries.
                var values: [String: SnapshotValue] = [:]
                if Bool.random(using: &random) {
                    values["category"] = .string("c\(Int.random(in: 0..<5, using: &random))")
                }
                if Bool.random(using: &random) {
                    values["priority"] = .integer(Int64.random(in: 0..<4, using: &random))
                }
                if values.isEmpty || Bool.random(using: &random) {
                    values["title"] = .string("t\(Int.random(in: 0..<20, using: &random))")
                }
                table.apply(
                    PlannedChange(
                        kind: .update, identifier: id, values: values, updatedAttributes: values.keys.sorted()
                    ))
            }
        }
        let everything = Array(table.rows(of: "IndexedNote"))
        let category = "c\(Int.random(in: 0..<6, using: &random))"
        let priority = Int.random(in: 0..<5, using: &random)
        let title = "t\(Int.random(in: 0..<20, using: &random))"
        let predicates: [Predicate<IndexedNote>] = [
            #Predicate { $0.category == category },
            #Predicate { $0.priority == priority },
            #Predicate { $0.category == category && $0.priority == priority },
            #Predicate { $0.priority == priority && $0.title == title },
            #Predicate { $0.category == category || $0.priority == priority },
            #Predicate { $0.category != category },
            // Ranges on indexed attributes, one bound or two, strict or not, with other conditions.
            #Predicate { $0.priority > priority },
            #Predicate { $0.priority <= priority },
            #Predicate { $0.priority >= priority && $0.priority < priority + 2 },
            #Predicate { $0.category < category && $0.title != title },
            #Predicate { $0.category >= category && $0.priority == priority },
            #Predicate { [category, "c1"].contains($0.category) },
        ]
        // Sorted by an indexed integer with a limit (and an offset), without a predicate.
        for (order, offset, limit) in [(SortOrder.forward, 0, 3), (.reverse, 2, 5), (.forward, 7, 1)] {
            let descriptor = FetchDescriptor<IndexedNote>(
                sortBy: [SortDescriptor(\.priority, order: order), SortDescriptor(\.title)],
                fetchOffset: offset,
                fetchLimit: limit)
            let indexed = try SnapshotQuery.run(
                descriptor, over: table.candidates(for: descriptor), storeIdentifier: "notes")
            let scanned = try SnapshotQuery.run(descriptor, over: everything, storeIdentifier: "notes")
            #expect(indexed == scanned, "seed \(seed), \(order) offset \(offset) limit \(limit)")
        }
        for predicate in predicates {
            let descriptor = FetchDescriptor<IndexedNote>(predicate: predicate)
            let indexed = try SnapshotQuery.run(
                descriptor, over: table.candidates(for: ModelPredicateBounds(predicate)),
                storeIdentifier: "notes")
            let scanned = try SnapshotQuery.run(descriptor, over: everything, storeIdentifier: "notes")
            #expect(indexed == scanned, "seed \(seed)")
        }
    }

    @Test func anIndexOnSomethingThatIsNotAnAttributeIsRefused() throws {
        #expect {
            try ModelContainer(
                for: [BadlyIndexedNote.self],
                configurations: [ModelConfiguration(store: InMemoryDataStore(.init(name: "bad")))])
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .invalidConfiguration else {
                return false
            }
            return error.reason?.contains("index 1") == true
        }
    }
}
