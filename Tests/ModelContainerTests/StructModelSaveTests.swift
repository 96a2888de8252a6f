import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import Testing

/// Struct models are values: once saved, the context keeps no registration for them, yet a copy the app still
/// holds names the same model. Saved alone into a context that tracks nothing else, every registration goes at
/// once; saved beside a tracked class model, one by one. Both must leave the same context behind.
@Suite struct StructModelSaveTests {
    static func container() throws -> ModelContainer {
        try ModelContainer(
            for: [Sample.self, ReportingNote.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "values"))])
    }

    @Test(arguments: [false, true])
    func savedStructCopiesStillNameTheirModels(besideAClassModel: Bool) throws {
        let container = try Self.container()
        let context = ModelContext(container)
        if besideAClassModel {
            let note = ReportingNote()
            note.title = "tracked"
            context.insert(note)
            try context.save()
        }
        let copies = (0..<5).map { Sample(value: Double($0)) }
        for copy in copies { context.insert(copy) }
        #expect(context.hasChanges)
        try context.save()
        #expect(!context.hasChanges)
        #expect(try context.fetchCount(FetchDescriptor<Sample>()) == 5)

        // A changed copy given to `insert` again is an update of its model, not a second model.
        var changed = copies[2]
        changed.value = 42
        context.insert(changed)
        #expect(context.hasChanges)
        try context.save()
        let values = try ModelContext(container).fetch(FetchDescriptor<Sample>()).map(\.value).sorted()
        #expect(values == [0, 1, 3, 4, 42])

        // And a copy given to `delete` deletes its model.
        context.delete(copies[0])
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Sample>()) == 4)
        #expect(!context.hasChanges)
        if besideAClassModel {
            #expect(
                try ModelContext(container).fetch(FetchDescriptor<ReportingNote>()).map(\.title) == [
                    "tracked"
                ])
        }
    }
}
