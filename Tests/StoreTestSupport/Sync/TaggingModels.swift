public import DataStoreCore

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
