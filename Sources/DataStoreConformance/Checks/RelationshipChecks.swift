import DataStoreCore
import Foundation

/// Delete rules and inverses, applied by the store's save inside the transaction of the delete.
enum RelationshipChecks {
    static func cascadeDeletesRelatedModels<S>(_ h: Harness<S>) throws {
        let a = h.entry("a")
        let b = h.entry("b")
        let other = h.entry("other")
        let folder = h.folder("f", entries: [a, b])
        try h.save(inserted: [h.linked(a, to: folder), h.linked(b, to: folder), other, folder])
        let before = try h.history().count
        let result = try h.performing("deleting the folder") {
            try h.store.save(DataStoreSaveChangesRequest(deleted: [folder]))
        }
        let history = try h.history()
        try h.expect.equal(history.count, before + 1, "the transactions after deleting the folder")
        let changes = history.last?.changes ?? []
        try h.expect.equal(
            changes.map { "\($0.kind) \($0.changedPersistentIdentifier.primaryKey)" },
            ["delete f", "delete a", "delete b"], "the delete's changes, cascade included")
        try h.expect.equal(
            changes.map { $0.tombstone?["name"] }, [.string("f"), .string("a"), .string("b")],
            "the tombstones of the folder and its cascaded entries")
        try h.expect.equal(
            Set(result.deleteRuleChanges.map(\.identifier)),
            [a.persistentIdentifier, b.persistentIdentifier],
            "deleteRuleChanges in the save's result")
        try h.expect.equal(
            try h.rows(ConformanceEntry.self).map(\.persistentIdentifier), [other.persistentIdentifier],
            "the entries left")
    }

    static func nullifyUpdatesTheInverse<S>(_ h: Harness<S>) throws {
        let a = h.entry("a")
        let b = h.entry("b")
        let folder = h.folder("f", entries: [a, b])
        try h.save(inserted: [h.linked(a, to: folder), h.linked(b, to: folder), folder])
        try h.save(deleted: [a])
        let changes = try h.history().last?.changes ?? []
        try h.expect.equal(
            changes.map { "\($0.kind) \($0.changedPersistentIdentifier.primaryKey) \($0.updatedAttributes)" },
            ["delete a []", "update f [\"entries\"]"],
            "the delete and the nullified inverse, in one transaction")
        let folders = try h.rows(ConformanceFolder.self)
        try h.expect.equal(
            folders.first?[attribute: "entries"], .array([.identifier(b.persistentIdentifier)]),
            "the folder's entries after deleting one")
    }

    static func denyRefusesTheDelete<S>(_ h: Harness<S>) throws {
        let pinned = h.entry("pinned")
        var folder = h.folder("f", entries: [])
        folder.values["pinned"] = .identifier(pinned.persistentIdentifier)
        try h.save(inserted: [pinned, folder])
        let before = try h.relationshipState()
        try h.expect.error(
            "deleteDenied naming ConformanceFolder.pinned",
            matching: {
                $0.code == .deleteDenied && $0.entity == "ConformanceFolder" && $0.attribute == "pinned"
            },
            in: { try h.save(deleted: [folder]) })
        try h.expect.equal(try h.relationshipState(), before, "data and history after the refused delete")
        // Deleting the pinned entry in the same save lets the folder go.
        try h.save(deleted: [folder, pinned])
        try h.expect.equal(try h.rows(ConformanceFolder.self).count, 0, "folders after deleting both")
    }

    static func danglingReferenceRejected<S>(_ h: Harness<S>) throws {
        let folder = h.folder("f", entries: [])
        try h.save(inserted: [folder])
        let before = try h.relationshipState()
        let ghost = h.entry("ghost")
        try h.expect.error(
            "invalidRelationship naming ConformanceEntry.folder",
            matching: {
                $0.code == .invalidRelationship && $0.entity == "ConformanceEntry" && $0.attribute == "folder"
            },
            in: {
                var orphan = h.entry("orphan")
                orphan.values["folder"] = .identifier(h.folder("missing", entries: []).persistentIdentifier)
                try h.save(inserted: [h.entry("fine"), orphan])
            })
        try h.expect.error(
            "invalidRelationship naming ConformanceFolder.entries",
            matching: {
                $0.code == .invalidRelationship && $0.entity == "ConformanceFolder"
                    && $0.attribute == "entries"
            },
            in: { try h.save(updated: [h.folder("f", entries: [ghost])]) })
        try h.expect.equal(try h.relationshipState(), before, "data and history after the rejected saves")
    }

    static func toOneEditMovesTheInverse<S>(_ h: Harness<S>) throws {
        let a = h.entry("a")
        let b = h.entry("b")
        let left = h.folder("left", entries: [a, b])
        let right = h.folder("right", entries: [])
        try h.save(inserted: [h.linked(a, to: left), h.linked(b, to: left), left, right])
        // Only the entry's side is sent, as a saver that never read the folders would.
        try h.save(updated: [
            DataStoreSnapshot(
                persistentIdentifier: a.persistentIdentifier,
                values: ["folder": .identifier(right.persistentIdentifier)])
        ])
        try h.expect.equal(try listing(h), ["left: b", "right: a"], "each folder's entries after the move")
        try h.save(deleted: [left])
        try h.expect.equal(
            try h.rows(ConformanceEntry.self).map(\.persistentIdentifier.primaryKey), ["a"],
            "the entries left after deleting the old folder (cascade)")
    }

    static func listEditsMergeWithTheStoredList<S>(_ h: Harness<S>) throws {
        let a = h.entry("a")
        let b = h.entry("b")
        let c = h.entry("c")
        let folder = h.folder("f", entries: [a])
        try h.save(inserted: [h.linked(a, to: folder), b, c, folder])
        let seen = folder[attribute: "entries"]
        // Another saver adds b; then a saver that still sees [a] adds c and removes a.
        try h.save(updated: [h.linked(b, to: folder)])
        let id = folder.persistentIdentifier
        try h.performing("saving a list edit with a baseline") {
            _ = try h.store.save(
                DataStoreSaveChangesRequest(
                    updated: [
                        DataStoreSnapshot(
                            persistentIdentifier: id,
                            values: ["entries": .array([.identifier(c.persistentIdentifier)])])
                    ], baselines: [id: ["entries": seen]]))
        }
        try h.expect.equal(try listing(h), ["f: b,c"], "the folder's entries after both edits")
        try h.expect.equal(try owners(h), ["a in nil", "b in f", "c in f"], "each entry's folder")
    }

    static func uniqueUpsertMergesAListWithABaseline<S>(_ h: Harness<S>) throws {
        let a = h.entry("a")
        let b = h.entry("b")
        let folder = h.folder("f", entries: [a])
        try h.save(inserted: [h.linked(a, to: folder), b, folder])
        // Another saver, which never saw f, makes its own folder named f holding b: an upsert of f.
        var duplicate = h.folder("f", entries: [b])
        duplicate.persistentIdentifier = h.relationshipIdentifier(ConformanceFolder.self, "another f")
        let id = duplicate.persistentIdentifier
        let result = try h.performing("saving an upsert with a baseline for its list") {
            try h.store.save(
                DataStoreSaveChangesRequest(
                    inserted: [duplicate], updated: [h.linked(b, to: duplicate)],
                    baselines: [id: ["entries": .array([])]]))
        }
        try h.expect.equal(
            result.remappedIdentifiers, [id: folder.persistentIdentifier], "the remapped identifiers")
        try h.expect.equal(try listing(h), ["f: a,b"], "the folder's entries after the upsert")
        try h.expect.equal(try owners(h), ["a in f", "b in f"], "each entry's folder")
    }

    static func toManyListsNameEachModelOnce<S>(_ h: Harness<S>) throws {
        let a = h.entry("a")
        let b = h.entry("b")
        let folder = h.folder("f", entries: [a])
        try h.save(inserted: [h.linked(a, to: folder), b, folder])
        // A saver sends the folder's list naming b twice, and a again after it.
        var repeated = folder
        repeated.values["entries"] = .array([a, b, b, a].map { .identifier($0.persistentIdentifier) })
        try h.save(updated: [repeated])
        try h.expect.equal(try listing(h), ["f: a,b"], "the folder's entries after a save naming them twice")
        try h.expect.equal(try owners(h), ["a in f", "b in f"], "each entry's folder")
    }

    /// Each entry's folder, as `a in f` (`a in nil` without one).
    private static func owners<S>(_ h: Harness<S>) throws -> [String] {
        try h.rows(ConformanceEntry.self).map {
            "\($0.persistentIdentifier.primaryKey) in "
                + ($0[attribute: "folder"].relatedIdentifiersForChecks.first?.primaryKey ?? "nil")
        }
    }

    /// Each folder's entries, as `name: a,b`.
    private static func listing<S>(_ h: Harness<S>) throws -> [String] {
        try h.rows(ConformanceFolder.self).map {
            "\($0.persistentIdentifier.primaryKey): "
                + ($0[attribute: "entries"].relatedIdentifiersForChecks).map(\.primaryKey).joined(
                    separator: ",")
        }
    }

    static func inverseSidesStayConsistent<S>(_ h: Harness<S>) throws {
        let a = h.entry("a")
        let b = h.entry("b")
        let c = h.entry("c")
        let left = h.folder("left", entries: [a, b])
        let right = h.folder("right", entries: [c])
        try h.save(inserted: [
            h.linked(a, to: left), h.linked(b, to: left), h.linked(c, to: right), left, right,
        ])
        // Move b to the right folder (three models change together), then delete c (nullify).
        try h.save(updated: [
            h.linked(b, to: right), h.folder("left", entries: [a]), h.folder("right", entries: [c, b]),
        ])
        try h.save(deleted: [c])
        try h.expect.equal(try listing(h), ["left: a", "right: b"], "each folder's entries")
        try h.expect.equal(try owners(h), ["a in left", "b in right"], "each entry's folder")
    }
}

extension SnapshotValue {
    /// The identifiers of a relationship value, for comparing in checks.
    var relatedIdentifiersForChecks: [PersistentIdentifier] {
        switch self {
        case .identifier(let id): [id]
        case .array(let values):
            values.compactMap {
                if case .identifier(let id) = $0 { return id }
                return nil
            }
        default: []
        }
    }
}

extension Harness {
    func relationshipIdentifier<Model: PersistentModel>(_: Model.Type, _ key: String) -> PersistentIdentifier
    {
        PersistentIdentifier(storeIdentifier: store.identifier, entityName: Model.entityName, primaryKey: key)
    }

    /// A folder snapshot holding `entries`, pinning nothing.
    func folder(_ name: String, entries: [DataStoreSnapshot]) -> DataStoreSnapshot {
        DataStoreSnapshot(
            persistentIdentifier: relationshipIdentifier(ConformanceFolder.self, name),
            values: [
                "name": .string(name),
                "entries": .array(entries.map { .identifier($0.persistentIdentifier) }),
                "pinned": .null,
            ])
    }

    /// An entry snapshot in no folder.
    func entry(_ name: String) -> DataStoreSnapshot {
        DataStoreSnapshot(
            persistentIdentifier: relationshipIdentifier(ConformanceEntry.self, name),
            values: ["name": .string(name), "folder": .null])
    }

    /// The entry placed in `folder`.
    func linked(_ entry: DataStoreSnapshot, to folder: DataStoreSnapshot) -> DataStoreSnapshot {
        changed(entry, ["folder": .identifier(folder.persistentIdentifier)])
    }

    /// Every row of `Model`, in identifier order.
    func rows<Model: PersistentModel>(_: Model.Type) throws -> [DataStoreSnapshot] {
        try performing("fetch \(Model.entityName)") {
            try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Model>())).snapshots
        }
    }

    /// Folders, entries and history, to compare before and after something that must change nothing.
    func relationshipState() throws -> [String] {
        // Values sorted by name: a dictionary's description follows its storage order, which differs between
        // equal dictionaries built differently (a store that decodes rows builds them differently).
        try (rows(ConformanceFolder.self) + rows(ConformanceEntry.self)).map { row in
            "\(row.persistentIdentifier) "
                + row.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
            + history().map { "\($0.transactionIdentifier):\($0.changes.count)" }
    }
}
