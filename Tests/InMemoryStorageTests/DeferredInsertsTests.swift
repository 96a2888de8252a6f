import Testing

@testable import DataStoreCore
@testable import DataStoreModels

/// The list of deferred inserts keeps each model as its own type, in runs of one type. It must still behave as
/// a list of values: a copy the save reads from does not change when the context inserts more, and every
/// reading gives the inserts in insert order.
@Suite struct DeferredInsertsTests {
    static func id(_ key: String, _ entity: String) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: "notes", entityName: entity, primaryKey: key)
    }

    /// Readings, a note, then readings again: three runs, read back in insert order.
    static func mixedList() -> (DeferredInserts, [PersistentIdentifier]) {
        var list = DeferredInserts()
        var order: [PersistentIdentifier] = []
        for index in 0..<5 {
            if index == 2 {
                let note = Note(title: "between")
                order.append(id("n", "Note"))
                list.append(note, as: order.last!, isClass: true)
            }
            order.append(id("r\(index)", "Reading"))
            list.append(Reading(sensor: "s\(index)", value: Double(index)), as: order.last!, isClass: false)
        }
        return (list, order)
    }

    @Test func theInsertsComeBackInInsertOrder() {
        let (list, order) = Self.mixedList()
        #expect(list.count == 6)
        #expect(list.runs.count == 3)
        #expect(list.identifiers == order)
        var visited: [(Int, PersistentIdentifier, Double?)] = []
        list.forEachInsert { position, id, model in visited.append((position, id, (model as? Reading)?.value))
        }
        #expect(visited.map(\.0) == Array(0..<6))
        #expect(visited.map(\.1) == order)
        #expect(visited.map(\.2) == [0, 1, nil, 2, 3, 4])
        // Only the class model, at its position in the list.
        var classModels: [(Int, PersistentIdentifier)] = []
        list.forEachInsert(classModelsOnly: true) { position, id, model in
            #expect(model is Note)
            classModels.append((position, id))
        }
        #expect(classModels.map(\.0) == [2])
        #expect(classModels.map(\.1) == [Self.id("n", "Note")])
    }

    @Test func aCopyDoesNotGrowWithTheOriginal() {
        var (list, order) = Self.mixedList()
        let copy = list
        list.append(Reading(sensor: "late", value: 99), as: Self.id("late", "Reading"), isClass: false)
        list.append(Note(title: "later"), as: Self.id("later", "Note"), isClass: true)
        #expect(copy.count == 6)
        #expect(copy.identifiers == order)
        #expect(copy.runs.last?.snapshots().map(\.persistentIdentifier) == Array(order.suffix(3)))
        #expect(list.count == 8)
        #expect(list.runs.count == 4)
        #expect(list.identifiers == order + [Self.id("late", "Reading"), Self.id("later", "Note")])
    }

    @Test func aRunReadsTheValuesEachModelWouldGive() {
        let (list, order) = Self.mixedList()
        let snapshots = list.runs.flatMap { $0.snapshots() }
        #expect(snapshots.map(\.persistentIdentifier) == order)
        var expected: [[String: SnapshotValue]] = []
        list.forEachInsert { _, _, model in expected.append(model.snapshotValues) }
        #expect(snapshots.map(\.values) == expected)
        #expect(snapshots[0].values["sensor"] == .string("s0"))
        #expect(snapshots[2].values["title"] == .string("between"))
    }

    /// The save takes the class models out of its own list; a run a copy shares is read, and the copy keeps it.
    @Test func takingTheClassModelsLeavesACopyWhole() {
        var (list, order) = Self.mixedList()
        let copy = list
        var taken: [(Int, PersistentIdentifier, String?)] = []
        list.takeEachClassModel { position, id, model in taken.append((position, id, (model as? Note)?.title))
        }
        #expect(taken.map(\.0) == [2])
        #expect(taken.map(\.1) == [order[2]])
        #expect(taken.map(\.2) == ["between"])
        var fromCopy: [String?] = []
        copy.forEachInsert(classModelsOnly: true) { _, _, model in fromCopy.append((model as? Note)?.title) }
        #expect(fromCopy == ["between"])
    }

    /// From a list nothing else shares, every class model is handed out once, in order, and moved: once the
    /// list and the models handed out are gone, the models are freed (neither kept alive nor released twice).
    @Test func takingFromAnOwnedListHandsEveryModelOutOnce() {
        weak var first: Note?
        weak var last: Note?
        do {
            var list = DeferredInserts()
            for index in 0..<40 {
                list.append(Note(title: "n\(index)"), as: Self.id("n\(index)", "Note"), isClass: true)
            }
            var handedOut: [Note] = []
            var identifiers: [PersistentIdentifier] = []
            list.takeEachClassModel { _, id, model in
                handedOut.append(model as! Note)
                identifiers.append(id)
            }
            #expect(handedOut.map(\.title) == (0..<40).map { "n\($0)" })
            #expect(identifiers == (0..<40).map { Self.id("n\($0)", "Note") })
            first = handedOut.first
            last = handedOut.last
            #expect(first != nil && last != nil)
        }
        #expect(first == nil)
        #expect(last == nil)
    }
}
