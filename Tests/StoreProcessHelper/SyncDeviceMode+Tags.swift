// The tags workloads of the sync fault test's device (`sync-device … tags|marks`): notes and tags, a
// many-to-many relationship without previous values (`tags`) or with them (`marks`), edited through model
// contexts from either side.

import DataStoreCore
import DataStoreHistory
import Foundation
import StoreTestSupport

#if PostgreSQL
    /// One random transaction on notes and tags, through a new model context as an app makes it: a new note
    /// with up to two tags, a note tagged or untagged from the note's side or the tag's, one side's list
    /// reversed, or a note deleted; in one transaction of four, two or three pairs of random notes and tags
    /// tagged or untagged from either side in one save; every five seconds a new tag
    /// instead, put on a note, which every device makes on its first edit of those seconds unless it holds it
    /// already (devices that make it before they have pulled another's have the server merge theirs into the
    /// first: its name is unique); about one transaction in forty deletes a tag made in the run. Each
    /// transaction writes `stamp` into the memo of the tag it edits (a random tag for a note without tags, or
    /// a delete), and of a seeded tag, which no device deletes, when that tag was made in the run: so every
    /// transaction carries its stamp to the server.
    ///
    /// Before saving, appends a line per thing the edit does to `intents`: `insert TITLE`, `tag TITLE TAG`,
    /// `untag TITLE TAG`, `delete TITLE`, `newtag TAG`, `deltag TAG`, `reorder`. Returns how many models the context changed.
    func editTagsOnce<Note: TaggingNote>(
        _: Note.Type, _ container: ModelContainer, stamp: String, random: inout SplitMix64,
        intents: FileHandle
    ) throws -> Int {
        let context = ModelContext(container)
        context.author = "app"
        let tags = try context.fetch(FetchDescriptor<Note.Tag>()).sorted { $0.name < $1.name }
        guard !tags.isEmpty else { return 0 }
        let notes = try context.fetch(FetchDescriptor<Note>()).sorted { $0.title < $1.title }
        var tag = tags[Int.random(in: 0..<tags.count, using: &random)]
        var lines: [String] = []
        let window = Int(Date().timeIntervalSince1970 / 5)
        let name = "tag-w\(window)"
        // Now and then a tag made in the run, half a minute old at least, is deleted: its pairs go with it, and
        // other devices go on tagging with it until they pull the delete.
        let doomed =
            Int.random(in: 0..<40, using: &random) == 0
            ? tags.first { $0.name.hasPrefix("tag-w") && $0.name < "tag-w\(window - 6)" } : nil
        let choice = notes.isEmpty ? 0 : Int.random(in: 0..<20, using: &random)
        // One transaction in four makes two or three steps in one save, each a pair of a random note and tag
        // tagged or untagged from either side: a device's save then writes the sides of several notes and tags
        // at once, some of them without pairs other devices made that it has not pulled.
        let steps = Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 2...3, using: &random) : 1
        switch choice {
        case _ where doomed != nil:
            context.delete(doomed!)
            lines.append("deltag \(doomed!.name)")
            tag = tags.first { !$0.name.hasPrefix("tag-w") } ?? tags[0]
        case _ where !notes.isEmpty && steps > 1:
            for _ in 0..<steps {
                let note = notes[Int.random(in: 0..<notes.count, using: &random)]
                tag = tags[Int.random(in: 0..<tags.count, using: &random)]
                let tagged = note.tags.contains { $0 === tag }
                switch (tagged, Bool.random(using: &random)) {
                case (false, true): note.tags.insert(tag, at: 0)
                case (false, false): tag.notes = [note] + (tag.notes ?? [])
                case (true, true): note.tags.removeAll { $0 === tag }
                case (true, false): tag.notes = (tag.notes ?? []).filter { $0 !== note }
                }
                lines.append("\(tagged ? "untag" : "tag") \(note.title) \(tag.name)")
            }
        case _ where !notes.isEmpty && !tags.contains(where: { $0.name == name }):
            tag = Note.Tag(name: name)
            context.insert(tag)
            let note = notes[Int.random(in: 0..<notes.count, using: &random)]
            if Bool.random(using: &random) { note.tags.append(tag) } else { tag.notes = [note] }
            lines += ["newtag \(name)", "tag \(note.title) \(name)"]
        case 0..<4 where notes.count < 40:
            let note = Note(title: "note-\(stamp)")
            context.insert(note)
            lines.append("insert \(note.title)")
            // Up to two tags, appended on the note's side: the tags' lists gain it through the inverse.
            for chosen in tags.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)) {
                note.tags.append(chosen)
                lines.append("tag \(note.title) \(chosen.name)")
                tag = chosen
            }
        case 0..<10:
            let note = notes[Int.random(in: 0..<notes.count, using: &random)]
            let tagged = note.tags.contains { $0 === tag }
            let fromTheNote = Bool.random(using: &random)
            switch (tagged, fromTheNote) {
            case (false, true): note.tags.append(tag)
            case (false, false): tag.notes = (tag.notes ?? []) + [note]
            case (true, true): note.tags.removeAll { $0 === tag }
            case (true, false): tag.notes = (tag.notes ?? []).filter { $0 !== note }
            }
            lines.append("\(tagged ? "untag" : "tag") \(note.title) \(tag.name)")
        case 10..<13:
            let note = notes[Int.random(in: 0..<notes.count, using: &random)]
            if let first = note.tags.first { tag = first }
            note.tags.reverse()
            lines.append("reorder")
        case 13..<16:
            tag.notes = (tag.notes ?? []).reversed()
            lines.append("reorder")
        case 16..<20 where notes.count > 20:
            let note = notes[Int.random(in: 0..<notes.count, using: &random)]
            context.delete(note)
            lines.append("delete \(note.title)")
        default:
            lines.append("reorder")
            tag.notes = (tag.notes ?? []).reversed()
        }
        tag.memo = stamp
        // A tag made in the run may be deleted on the server before this transaction arrives, with every change
        // the transaction makes to it: a seeded tag, which no device deletes, carries the stamp too.
        if tag.name.hasPrefix("tag-w") { tags.first { !$0.name.hasPrefix("tag-w") }?.memo = stamp }
        intents.write(Data(lines.map { "\(stamp) \($0)\n" }.joined().utf8))
        let changes = [context.insertedModelsArray, context.changedModelsArray, context.deletedModelsArray]
            .map(\.count).reduce(0, +)
        try context.save()
        return changes
    }
#endif
