public import DataStoreCore
import DataStoreSync

/// A note of a many-to-many pair, as `SyncTaggingScenario` edits it: notes with tags, each tag listing its
/// notes. `SyncTaggedNote` keeps no previous values of its list; `SyncMarkedNote` keeps them on both sides.
public protocol TaggingNote: PersistentModel, AnyObject {
    /// The other side.
    associatedtype Tag: TaggingTag where Tag.Note == Self
    /// A unique title.
    var title: String { get }
    /// Its tags.
    var tags: [Tag] { get set }
    /// A note titled `title`.
    init(title: String)
}

/// A tag of a many-to-many pair, listing the notes that carry it.
public protocol TaggingTag: PersistentModel, AnyObject {
    /// The other side.
    associatedtype Note: TaggingNote where Note.Tag == Self
    /// A unique name.
    var name: String { get }
    /// Free text: the fault test's tags workloads write each transaction's stamp into it.
    var memo: String { get set }
    /// The notes carrying it.
    var notes: [Note]? { get set }
    /// A tag named `name`.
    init(name: String)
}

extension SyncTaggedNote: TaggingNote {}
extension SyncTag: TaggingTag {}
extension SyncMarkedNote: TaggingNote {}
extension SyncMark: TaggingTag {}

extension TaggingNote {
    /// The pair's two model types.
    public static var pairModels: [any PersistentModel.Type] { [Self.self, Tag.self] }
    /// The pair's schema, with the sync's bookkeeping (``SyncSchemas/tags`` or ``SyncSchemas/marks``).
    public static var syncSchema: Schema { Schema([Self.self, Tag.self, SyncCursor.self]) }
}

/// The fault test's tags workloads by name.
public enum TaggingWorkload {
    /// The notes the workload `name` tags: `tags` tags `SyncTaggedNote`s, `marks` `SyncMarkedNote`s; `nil` for
    /// another name.
    public static func note(_ name: String) -> (any TaggingNote.Type)? {
        ["tags": SyncTaggedNote.self, "marks": SyncMarkedNote.self][name]
    }
}

/// Whether a to-many list names one model more than once (a store keeps each once).
public func namesAModelTwice(_ list: [some PersistentModel]) -> Bool {
    Set(list.map(\.persistentModelID)).count != list.count
}
