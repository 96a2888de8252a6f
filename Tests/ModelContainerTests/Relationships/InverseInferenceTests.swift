import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import StoreTestSupport
import Testing

/// An author and posts that point at each other with no `inverse:` on either side: SwiftData infers the pair.
final class Author: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Author>] = [
        .attribute("name", \.name), .relationship("posts", \.posts),
    ]
    var persistentModelID = PersistentIdentifier()
    @Attribute var name = ""
    @Relationship var posts: [Post] = []
    init() {}
    init(name: String) { self.name = name }
}

/// A post of an ``Author``.
final class Post: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Post>] = [
        .attribute("title", \.title), .relationship("author", \.author),
    ]
    var persistentModelID = PersistentIdentifier()
    @Attribute var title = ""
    @Relationship var author: Author?
    init() {}
    init(title: String) { self.title = title }
}

/// A draft that two relationships of ``Editor`` point at, and that points back once: which is the inverse?
final class Draft: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Draft>] = [.relationship("editor", \.editor)]
    var persistentModelID = PersistentIdentifier()
    @Relationship var editor: Editor?
    init() {}
}

/// An editor with a current draft and a list of drafts, neither declaring an inverse.
final class Editor: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Editor>] = [
        .relationship("current", \.current), .relationship("drafts", \.drafts),
    ]
    var persistentModelID = PersistentIdentifier()
    @Relationship var current: Draft?
    @Relationship var drafts: [Draft] = []
    init() {}
}

/// Issue 37, item 15: inverses are inferred when unambiguous, and an ambiguous pair is refused.
@Suite struct InverseInferenceTests {
    @Test func anUndeclaredPairIsInferredInMemoryAndInTheStore() throws {
        let container = try ModelContainer(
            for: [Author.self], configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "blog"))]
        )
        let context = ModelContext(container)
        let author = Author(name: "Ada")
        context.insert(author)
        let post = Post(title: "Notes")
        author.posts.append(post)
        #expect(post.author === author)
        let other = Post(title: "Sketch")
        context.insert(other)
        other.author = author
        #expect(author.posts.map(\.title) == ["Notes", "Sketch"])
        try context.save()

        // The store keeps both sides: deleting a post removes it from the author's list (nullify).
        let deleter = ModelContext(container)
        deleter.delete(
            try #require(
                try deleter.fetch(FetchDescriptor<Post>(predicate: #Predicate { $0.title == "Notes" })).first)
        )
        try deleter.save()
        let stored = try #require(try ModelContext(container).fetch(FetchDescriptor<Author>()).first)
        #expect(stored.snapshotValues["posts"] == .array([.identifier(other.persistentModelID)]))
    }

    @Test func anAmbiguousPairIsRefused() throws {
        #expect {
            try ModelContainer(
                for: [Editor.self],
                configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "drafts"))])
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .invalidRelationship else {
                return false
            }
            return error.entity == "Editor" || error.entity == "Draft"
        }
    }
}
