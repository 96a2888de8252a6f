#if PostgreSQL
    import DataStoreCore
    import DataStoreHistory
    import Foundation
    import PostgresStorage
    import StoreTestSupport

    /// The tags workloads of the sync fault test: notes and tags (many-to-many, without previous values for
    /// `tags`, with them for `marks`), seeded on the server, then tagged, untagged, reordered and deleted by the
    /// devices, which make new tags too (`sync-device … tags|marks`).
    extension SyncFaultRun {
        /// The tags the devices find on the server (they make more and delete none), and the seeded notes with
        /// their tags.
        static let seededTags = (0..<6).map { "tag-\($0)" }
        static let seededNotes = (0..<6).map { index in
            ("note-seed-\(index)", [seededTags[index], seededTags[(index + 1) % seededTags.count]])
        }

        /// Six tags and six notes with two tags each, made on the server by its own app.
        func seedTags<Note: TaggingNote>(_: Note.Type, on server: PostgresDataStore) throws {
            let context = ModelContext(
                try ModelContainer(
                    for: [Note.self, Note.Tag.self], configurations: [ModelConfiguration(store: server)]))
            let tags = Dictionary(uniqueKeysWithValues: Self.seededTags.map { ($0, Note.Tag(name: $0)) })
            for tag in tags.values { context.insert(tag) }
            for (title, names) in Self.seededNotes {
                let note = Note(title: title)
                context.insert(note)
                note.tags = names.compactMap { tags[$0] }
            }
            try context.save()
        }

        /// The notes with their tags, and the tags with their memo and notes, each list in order, as comparable
        /// lines.
        func tagRows<Note: TaggingNote>(_: Note.Type, in store: some HistoryProvidingStore) throws -> [String]
        {
            let context = ModelContext(
                try ModelContainer(
                    for: [Note.self, Note.Tag.self], configurations: [ModelConfiguration(store: store)]))
            let notes = try context.fetch(FetchDescriptor<Note>()).map {
                "note \($0.persistentModelID.primaryKey) \($0.title)|"
                    + $0.tags.map(\.name).joined(separator: ",")
            }
            let tags = try context.fetch(FetchDescriptor<Note.Tag>()).map {
                "tag \($0.persistentModelID.primaryKey) \($0.name)|\($0.memo)|"
                    + ($0.notes ?? []).map(\.title).joined(separator: ",")
            }
            return (notes + tags).sorted()
        }

        /// The tags' rules, on the server (the devices hold the same, as `check` found): both sides of every pair
        /// agree, and each names a model once; each tag name is held once; every tag and note seeded or made by
        /// an acknowledged transaction is held unless some device meant to delete it, and none is held that no
        /// device made; every pair seeded or tagged by an acknowledged transaction is tagged unless some device
        /// meant to untag it or delete its note or tag; and no pair is tagged that nobody tagged.
        func checkTags<Note: TaggingNote>(
            _: Note.Type, directory: URL, server: PostgresDataStore, into report: inout Report
        ) throws {
            let context = ModelContext(
                try ModelContainer(
                    for: [Note.self, Note.Tag.self], configurations: [ModelConfiguration(store: server)]))
            let notes = try context.fetch(FetchDescriptor<Note>())
            let tags = try context.fetch(FetchDescriptor<Note.Tag>())
            report.notes = notes.count
            var pairs = Set<String>()
            for note in notes {
                if namesAModelTwice(note.tags) {
                    report.violations.append("\(note.title) carries a tag twice: \(note.tags.map(\.name))")
                }
                for tag in note.tags {
                    pairs.insert("\(note.title) \(tag.name)")
                    if !(tag.notes ?? []).contains(where: { $0 === note }) {
                        report.violations.append("\(note.title) carries \(tag.name), which does not list it")
                    }
                }
            }
            for tag in tags {
                if namesAModelTwice(tag.notes ?? []) {
                    report.violations.append(
                        "\(tag.name) lists a note twice: \((tag.notes ?? []).map(\.title))")
                }
                for note in tag.notes ?? [] where !note.tags.contains(where: { $0 === tag }) {
                    report.violations.append("\(tag.name) lists \(note.title), which does not carry it")
                }
            }
            report.links = pairs.count

            var made = Set(Self.seededNotes.map(\.0))
            var mustHold = made
            var deleted = Set<String>()
            var tagged = Set(Self.seededNotes.flatMap { note in note.1.map { "\(note.0) \($0)" } })
            var mustBeTagged = tagged
            var untagged = Set<String>()
            var tagsMade = Set(Self.seededTags)
            var tagsMadeAcknowledged: [String] = []
            var tagsDeleted = Set<String>()
            for index in 0..<devices {
                let acknowledged = Set(
                    try logLines(directory, "d\(index).acks").compactMap { $0.first.map(String.init) })
                // The last line may be cut short by a kill: its intent is unknown, and nothing acknowledged it.
                for fields in try logLines(directory, "d\(index).intents") where fields.count >= 3 {
                    let rest = fields.dropFirst(2).joined(separator: " ")
                    let sure = acknowledged.contains(String(fields[0]))
                    switch fields[1] {
                    case "insert":
                        made.insert(rest)
                        if sure { mustHold.insert(rest) }
                    case "delete": deleted.insert(rest)
                    case "tag" where fields.count == 4:
                        tagged.insert(rest)
                        if sure { mustBeTagged.insert(rest) }
                    case "untag" where fields.count == 4: untagged.insert(rest)
                    case "newtag":
                        tagsMade.insert(rest)
                        if sure { tagsMadeAcknowledged.append(rest) }
                    case "deltag": tagsDeleted.insert(rest)
                    default: break
                    }
                }
            }
            // The tags: each name once (unique, so the server merged the devices' tags of one name), none that
            // nobody made, and every one made by an acknowledged transaction.
            let names = tags.map(\.name)
            report.tripsMade = tagsMadeAcknowledged.count
            report.tripsMerged = tagsMadeAcknowledged.count - Set(tagsMadeAcknowledged).count
            if Set(names).count != names.count {
                report.violations.append("tags of one name: \(names.sorted())")
            }
            report.ownersDeleted = tagsDeleted.count
            let tagsLost = Set(Self.seededTags).union(tagsMadeAcknowledged).subtracting(names).subtracting(
                tagsDeleted)
            if !tagsLost.isEmpty { report.violations.append("acknowledged tags lost: \(tagsLost.sorted())") }
            let unknownTags = Set(names).subtracting(tagsMade)
            if !unknownTags.isEmpty {
                report.violations.append("tags no device made: \(unknownTags.sorted())")
            }
            let held = Set(notes.map(\.title))
            let lost = mustHold.subtracting(deleted).subtracting(held)
            if !lost.isEmpty { report.violations.append("acknowledged notes lost: \(lost.sorted())") }
            let unknown = held.subtracting(made)
            if !unknown.isEmpty { report.violations.append("notes no device made: \(unknown.sorted())") }
            let phantom = pairs.subtracting(tagged)
            if !phantom.isEmpty { report.violations.append("pairs nobody tagged: \(phantom.sorted())") }
            // A pair whose note or tag some device meant to delete may be gone: the delete wins over what others
            // did with it before they pulled it.
            let untaggedAlone = mustBeTagged.subtracting(untagged).subtracting(pairs).filter { pair in
                let parts = pair.split(separator: " ").map(String.init)
                return !deleted.contains(parts[0]) && !tagsDeleted.contains(parts[1])
            }
            if !untaggedAlone.isEmpty {
                let titles = Set(untaggedAlone.map { String($0.split(separator: " ")[0]) })
                let keys = Set(notes.filter { titles.contains($0.title) }.map(\.persistentModelID.primaryKey))
                report.violations.append(
                    "acknowledged pairs no longer tagged, though nobody untagged them: \(untaggedAlone.sorted())\n"
                        + "the server's history of their notes:\n"
                        + trail(of: keys, in: try server.fetchHistory(HistoryDescriptor()), limit: 60))
            }
        }
    }
#endif
