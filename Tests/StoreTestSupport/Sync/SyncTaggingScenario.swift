public import DataStoreCore
import DataStoreModels
import DataStoreSync
import Foundation
import JSONFileStorage

/// Two devices and the server's own app tag and untag notes, reorder both sides' lists, make tags of shared
/// names and delete tags at random, one pair per save or the pairs of two notes in one save, and the devices
/// push, pull or sync in random order, against any server store. At the end every store must hold the same
/// notes and tags with both lists in the same order, both sides must agree and name each model once, and every
/// pair tagged and never untagged (nor its tag deleted) must still be tagged.
///
/// The notes and tags are `SyncTaggedNote` and `SyncTag` (no previous values) or `SyncMarkedNote` and `SyncMark`
/// (previous values on both lists).
public struct SyncTaggingScenario<Server: HistoryProvidingStore, Note: TaggingNote>
where Server.HistoryType.Change: ValueRecordingHistoryChange {
    typealias Tag = Note.Tag
    /// Opens a fresh, empty server store with the given schema.
    let makeServer: (Schema) throws -> Server
    /// How many transactions the engines read of a store's history at a time (`nil`: the engine's default).
    let historyPageSize: Int?

    /// A scenario of `Note`s and their tags whose seeds run against servers from `makeServer`; with
    /// `historyPageSize`, the engines read history that many transactions at a time, so that a pull saves
    /// the server's history page by page.
    public init(
        _: Note.Type, historyPageSize: Int? = nil, makeServer: @escaping (Schema) throws -> Server
    ) {
        self.makeServer = makeServer
        self.historyPageSize = historyPageSize
    }

    /// The stores' schema.
    var schema: Schema { Note.syncSchema }

    /// Each note's tags and each tag's notes, in order, as comparable lines.
    static func state(_ container: ModelContainer) throws -> [String] {
        let context = ModelContext(container)
        let notes = try context.fetch(FetchDescriptor<Note>()).map {
            "note \($0.title): " + $0.tags.map(\.name).joined(separator: ",")
        }
        let tags = try context.fetch(FetchDescriptor<Tag>()).map {
            "tag \($0.name): " + ($0.notes ?? []).map(\.title).joined(separator: ",")
        }
        return (notes + tags).sorted()
    }

    /// Runs one seed of 30 rounds; returns what broke, in words, with the edits made (empty when it held).
    public func run(seed: UInt64) throws -> [String] {
        let server = try makeServer(schema)
        let lab = try SyncLab(server: server)
        defer { lab.remove() }
        let models = Note.pairModels
        let devices = try ["a", "b"].map { try lab.device($0, schema: schema, models: models) }
        for device in devices { device.engine.testHistoryPageSize = historyPageSize }
        let containers =
            devices.map(\.container) + [
                try ModelContainer(for: models, configurations: [.init(store: server)])
            ]
        var random = SplitMix64(seed: seed)
        var added: Set<String> = []
        var removed: Set<String> = []
        var deletedTags: Set<String> = []
        var log: [String] = []
        try devices[0].edit { context in
            for title in ["n0", "n1"] { context.insert(Note(title: title)) }
            for name in ["t0", "t1", "t2"] { context.insert(Tag(name: name)) }
        }
        for device in devices { try device.sync() }
        for round in 0..<30 {
            let editor = Int.random(in: 0..<3, using: &random)
            let step = Int.random(in: 0..<10, using: &random)
            let (p, q) = (Int.random(in: 0..<100, using: &random), Int.random(in: 0..<100, using: &random))
            log.append("\(editor): step \(step) \(p) \(q)")
            let context = ModelContext(containers[editor])
            let notes = try context.fetch(FetchDescriptor<Note>()).sorted { $0.title < $1.title }
            let tags = try context.fetch(FetchDescriptor<Tag>()).sorted { $0.name < $1.name }
            guard !notes.isEmpty, !tags.isEmpty else { continue }
            let (note, tag) = (notes[p % notes.count], tags[q % tags.count])
            let pair = "\(note.title)|\(tag.name)"
            switch step {
            case 0...1 where !note.tags.contains { $0 === tag }:
                note.tags.append(tag)
                added.insert(pair)
            case 2 where note.tags.contains { $0 === tag }:
                note.tags.removeAll { $0 === tag }
                removed.insert(pair)
            case 3: note.tags.reverse()
            case 4: tag.notes?.reverse()
            case 5:
                deletedTags.insert(tag.name)
                context.delete(tag)
            case 6: context.insert(Note(title: "n\(editor)-\(round)"))
            case 7:
                // A tag of a name shared by every editor for five rounds, put on the note: two stores that
                // make it before either pulls the other's hold one tag of the name once the server merges
                // them, and the note carries it once.
                let made = Tag(name: "w\(round / 5)")
                context.insert(made)
                note.tags.append(made)
                added.insert("\(note.title)|\(made.name)")
            case 8, 9:
                // The pairs of two notes in one save: this note tagged (8) or untagged (9), and another note
                // put on another tag from the tag's side. A pair another device made and this one has not
                // pulled stays, though both notes' sides are written without it.
                let (other, otherTag) = (notes[(p + 1) % notes.count], tags[(q + 1) % tags.count])
                if step == 8, !note.tags.contains(where: { $0 === tag }) {
                    note.tags.append(tag)
                    added.insert(pair)
                } else if step == 9, note.tags.contains(where: { $0 === tag }) {
                    note.tags.removeAll { $0 === tag }
                    removed.insert(pair)
                }
                if !other.tags.contains(where: { $0 === otherTag }) {
                    otherTag.notes = (otherTag.notes ?? []) + [other]
                    added.insert("\(other.title)|\(otherTag.name)")
                }
            default: break
            }
            try context.save()
            let device = devices[Int.random(in: 0..<2, using: &random)]
            switch Int.random(in: 0..<4, using: &random) {
            case 0: try device.sync()
            case 1: try device.engine.push()
            case 2: try device.engine.pull()
            default: break
            }
        }
        for index in [0, 1, 0] { try devices[index].sync() }
        let states = try containers.map { try Self.state($0) }
        var problems: [String] = []
        if states[0] != states[2] || states[1] != states[2] {
            problems.append("the stores differ: \(states)")
        }
        // Both sides agree, and every pair tagged and never untagged is tagged.
        let context = ModelContext(containers[2])
        var linked: Set<String> = []
        for note in try context.fetch(FetchDescriptor<Note>()) {
            if namesAModelTwice(note.tags) {
                problems.append("\(note.title) carries a tag twice: \(note.tags.map(\.name))")
            }
            for tag in note.tags {
                linked.insert("\(note.title)|\(tag.name)")
                if !(tag.notes ?? []).contains(where: { $0 === note }) {
                    problems.append("\(tag.name) does not list \(note.title)")
                }
            }
        }
        for tag in try context.fetch(FetchDescriptor<Tag>()) {
            if namesAModelTwice(tag.notes ?? []) { problems.append("\(tag.name) lists a note twice") }
            for note in tag.notes ?? [] where !linked.contains("\(note.title)|\(tag.name)") {
                problems.append("\(note.title) does not carry \(tag.name)")
            }
        }
        let lost = added.subtracting(removed).subtracting(linked).filter {
            !deletedTags.contains(String($0.split(separator: "|")[1]))
        }
        if !lost.isEmpty { problems.append("tagged and never untagged, but not tagged: \(lost.sorted())") }
        if !problems.isEmpty { problems.append(log.joined(separator: "\n")) }
        return problems
    }
}

extension SyncTaggingScenario where Note == SyncTaggedNote {
    /// A scenario of `SyncTaggedNote`s and `SyncTag`s whose seeds run against servers from `makeServer`.
    public init(makeServer: @escaping (Schema) throws -> Server) {
        self.init(SyncTaggedNote.self, makeServer: makeServer)
    }
}
