import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import Testing

/// A label kept as a value: every copy carries the identifier it was made with.
struct Label: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Label>] = [
        .attribute("name", \.name, options: .unique), .attribute("color", \.color),
    ]
    var persistentModelID = PersistentIdentifier()
    var name = ""
    var color = ""
    init() {}
    init(_ name: String, _ color: String) {
        self.name = name
        self.color = color
    }
}

/// A model whose insert became an upsert keeps standing for the model it updated: every later insert of a
/// copy made before (with the identifier it was made with) updates that model again.
@Suite struct UpsertAliasTests {
    @Test func copiesOfAnUpsertedModelKeepUpdatingTheModelItUpdated() throws {
        let container = try ModelContainer(
            for: [Label.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "labels"))])
        let context = ModelContext(container)
        context.insert(Label("red", "red"))
        try context.save()
        // A new label of a taken name: an upsert of the stored one.
        var copy = Label("red", "blue")
        context.insert(copy)
        try context.save()
        for color in ["green", "yellow", "white"] {
            copy.color = color
            context.insert(copy)
            try context.save()
            let labels = try ModelContext(container).fetch(FetchDescriptor<Label>())
            #expect(labels.map(\.color) == [color], "after inserting the copy as \(color)")
        }
    }
}
