public import DataStoreCore
import DataStoreModels
import DataStoreSync
import Foundation
import JSONFileStorage
import Synchronization

/// The sync's conflict table, one scenario per row, against any server store: each returns what broke the
/// documented outcome, in words (empty when the row holds). The in-memory and PostgreSQL test suites run
/// the same rows.
public struct SyncConflictTable<Server: HistoryProvidingStore>
where Server.HistoryType.Change: ValueRecordingHistoryChange {
    /// Opens a fresh, empty server store with the given schema.
    let makeServer: (Schema) throws -> Server

    /// A table whose rows run against servers from `makeServer`.
    public init(makeServer: @escaping (Schema) throws -> Server) {
        self.makeServer = makeServer
    }

    /// Two devices edit different attributes of one trip: both edits survive everywhere.
    public func differentAttributesBothSurvive() throws -> [String] {
        try withTwoDevices { a, b, problems in
            try Self.bothHoldLisbon(a, b)
            try a.edit { try Self.trip("Lisbon", of: a, in: $0).destination = "Lisbon and Sintra" }
            try b.edit { try Self.trip("Lisbon", of: b, in: $0).nights = 5 }
            try a.sync()
            try b.sync()
            try a.sync()
            let state = try a.state()
            problems.expect(
                state.contains { $0.hasSuffix("Lisbon|Lisbon and Sintra|5||") }, "both edits kept: \(state)")
        }
    }

    /// Two devices change the same attribute: the push that reaches the server last wins, everywhere, and
    /// that push counts one conflict.
    public func sameAttributeLaterPushWins() throws -> [String] {
        try withTwoDevices { a, b, problems in
            try Self.bothHoldLisbon(a, b)
            try a.edit { try Self.trip("Lisbon", of: a, in: $0).nights = 4 }
            try b.edit { try Self.trip("Lisbon", of: b, in: $0).nights = 6 }
            // A second transaction without a conflict: the count is per conflict, not per transaction.
            try b.edit { try Self.trip("Lisbon", of: b, in: $0).destination = "Lisbon" }
            try b.edit { try Self.trip("Lisbon", of: b, in: $0).notes = "b" }
            let first = try a.sync()
            let second = try b.sync()
            try a.sync()
            problems.expect(first.conflicts == 0, "the first push met no conflict: \(first)")
            problems.expect(second.conflicts == 1, "the second push decided one conflict: \(second)")
            problems.expect(
                b.engine.status.conflictCount == 1, "the status counts one conflict: \(b.engine.status)")
            let state = try a.state()
            problems.expect(
                state.contains { $0.hasSuffix("Lisbon|Lisbon|6|b|") }, "the later push's 6 won: \(state)")
        }
    }

    /// The resolver sees the base, the device's value and the server's, and its choice (here the larger
    /// number) is what every device and the server keep; the device that pushed is corrected at once.
    public func resolverSeesBaseLocalAndRemote() throws -> [String] {
        let seen = Mutex<[SyncConflict]>([])
        let larger: SyncConflictResolver = { conflict in
            seen.withLock { $0.append(conflict) }
            guard case .integer(let local) = conflict.local, case .integer(let remote) = conflict.remote
            else {
                return conflict.local
            }
            return .integer(max(local, remote))
        }
        return try withTwoDevices(resolver: larger) { a, b, problems in
            try Self.bothHoldLisbon(a, b)
            try a.edit { try Self.trip("Lisbon", of: a, in: $0).nights = 9 }
            try b.edit { try Self.trip("Lisbon", of: b, in: $0).nights = 6 }
            try a.sync()
            try b.sync()
            let conflicts = seen.withLock { $0 }
            problems.expect(conflicts.count == 1, "one conflict: \(conflicts)")
            if let conflict = conflicts.first {
                problems.expect(conflict.attribute == "nights", "on nights: \(conflict)")
                problems.expect(
                    conflict.base == .integer(3) && conflict.local == .integer(6)
                        && conflict.remote == .integer(9),
                    "base 3, local 6, remote 9: \(conflict)")
            }
            let corrected = try b.state()
            problems.expect(
                corrected.contains { $0.hasSuffix("Lisbon|Lisbon|9||") },
                "b corrected to 9 by its push: \(corrected)")
            try a.sync()
            let state = try a.state()
            problems.expect(state.contains { $0.hasSuffix("Lisbon|Lisbon|9||") }, "9 everywhere: \(state)")
        }
    }

    /// An attribute without previous values has no known base: the resolver is not asked, and the later push
    /// wins.
    public func attributeWithoutPreviousValuesLaterPushWins() throws -> [String] {
        let asked = Mutex(0)
        let resolver: SyncConflictResolver = { conflict in
            asked.withLock { $0 += 1 }
            return conflict.remote
        }
        return try withTwoDevices(resolver: resolver) { a, b, problems in
            try Self.bothHoldLisbon(a, b)
            try a.edit { try Self.trip("Lisbon", of: a, in: $0).notes = "from a" }
            try b.edit { try Self.trip("Lisbon", of: b, in: $0).notes = "from b" }
            try a.sync()
            try b.sync()
            try a.sync()
            problems.expect(
                asked.withLock { $0 } == 0, "the resolver was asked \(asked.withLock { $0 }) times")
            let state = try a.state()
            problems.expect(
                state.contains { $0.hasSuffix("Lisbon|Lisbon|3|from b|") }, "b's later push won: \(state)")
        }
    }

    /// A device deletes a trip another device updated meanwhile: the delete wins everywhere.
    public func deleteBeatsConcurrentUpdate() throws -> [String] {
        try withTwoDevices { a, b, problems in
            try Self.bothHoldLisbon(a, b)
            try a.edit { try Self.trip("Lisbon", of: a, in: $0).nights = 4 }
            try a.sync()
            try b.edit { $0.delete(try Self.trip("Lisbon", of: b, in: $0)) }
            try b.sync()
            try a.sync()
            let state = try a.state()
            problems.expect(state.isEmpty, "the trip is gone: \(state)")
        }
    }

    /// A device updates a trip another device deleted and pushed first: the update is dropped without an
    /// error, and the device's copy goes.
    public func updateOfADeletedModelIsDropped() throws -> [String] {
        try withTwoDevices { a, b, problems in
            try Self.bothHoldLisbon(a, b)
            try a.edit { $0.delete(try Self.trip("Lisbon", of: a, in: $0)) }
            try a.sync()
            try b.edit { try Self.trip("Lisbon", of: b, in: $0).nights = 4 }
            try b.sync()
            try a.sync()
            let state = try b.state()
            problems.expect(state.isEmpty, "the trip is gone: \(state)")
            problems.expect(
                b.engine.status.lastError == nil, "no error: \(String(describing: b.engine.status.lastError))"
            )
        }
    }

    /// Two devices create a trip with the same unique name: the server merges the later insert into the
    /// first trip (SwiftData's upsert: the later insert's values, the first trip's identity), and the later
    /// device's trip becomes that trip, with its items moved over.
    public func uniqueNameCollisionMergesIntoTheFirstModel() throws -> [String] {
        try withTwoDevices { a, b, problems in
            try a.edit { $0.insert(SyncTrip(name: "Paris", destination: "France", nights: 2)) }
            try b.edit { context in
                let trip = SyncTrip(name: "Paris", destination: "Île-de-France", nights: 4)
                context.insert(trip)
                let item = SyncItem(title: "umbrella")
                context.insert(item)
                item.trip = trip
            }
            try a.sync()
            try b.sync()
            try a.sync()
            let first = try a.state().first { $0.hasPrefix("trip ") }
            let state = try b.state()
            problems.expect(
                state.filter { $0.hasPrefix("trip ") } == [first].compactMap { $0 },
                "b holds a's trip, and only it: \(state) vs \(String(describing: first))")
            problems.expect(
                state.contains { $0.hasSuffix("Paris|Île-de-France|4||umbrella") },
                "b's values and item, merged: \(state)")
        }
    }

    /// A device adds an item to a trip another device deleted (with its items): the new item survives
    /// everywhere, unlinked, and the deleted trip's own items are gone.
    public func linkToAModelDeletedElsewhereIsDropped() throws -> [String] {
        try withTwoDevices { a, b, problems in
            try a.edit { context in
                let trip = SyncTrip(name: "Rome", destination: "Rome", nights: 2)
                context.insert(trip)
                let item = SyncItem(title: "passport")
                context.insert(item)
                item.trip = trip
            }
            try a.sync()
            try b.sync()
            try a.edit { $0.delete(try Self.trip("Rome", of: a, in: $0)) }
            try a.sync()
            try b.edit { context in
                let item = SyncItem(title: "charger")
                context.insert(item)
                item.trip = try Self.trip("Rome", of: b, in: context)
            }
            try b.sync()
            try a.sync()
            let state = try a.state()
            problems.expect(
                state.count == 1 && state.first?.hasSuffix(" charger|-") == true,
                "only the charger, unlinked: \(state)")
        }
    }

    /// A device reorders a trip's items, and the other device inserts one at the front: every device and the
    /// server hold the list in the order the last editor saw it. The items keep no previous values, so the
    /// order travels without a baseline.
    public func aReorderedListReachesEveryDevice() throws -> [String] {
        try withTwoDevices { a, b, problems in
            try Self.bothHoldLisbon(a, b, items: ["map", "tickets", "charger"])
            try a.edit { try Self.trip("Lisbon", of: a, in: $0).items.reverse() }
            try a.sync()
            try b.sync()
            try a.sync()
            for (device, name) in [(a, "a"), (b, "b")] {
                let items = try Self.lisbonItems(of: device)
                problems.expect(items == "charger,tickets,map", "\(name) holds the reversed list: \(items)")
            }
            try b.edit { context in
                let item = SyncItem(title: "passport")
                try Self.trip("Lisbon", of: b, in: context).items.insert(item, at: 0)
            }
            try b.sync()
            try a.sync()
            let items = try Self.lisbonItems(of: a)
            problems.expect(items == "passport,charger,tickets,map", "a holds the passport first: \(items)")
        }
    }

    /// A device reorders a trip's items while the other appends one, neither having seen the other's edit, and
    /// the reorder reaches the server first: the reorder and the new item both survive everywhere.
    public func aReorderAndAnItemAddedElsewhereBothSurvive() throws -> [String] {
        try reorderMeetsAppend(appendPushedFirst: false)
    }

    /// The same, with the append reaching the server first: the reordering device never saw the new item, and
    /// its list must not take it off the trip.
    public func anItemAddedElsewhereAndAReorderBothSurvive() throws -> [String] {
        try reorderMeetsAppend(appendPushedFirst: true)
    }

    private func reorderMeetsAppend(appendPushedFirst: Bool) throws -> [String] {
        try withTwoDevices { a, b, problems in
            try Self.bothHoldLisbon(a, b, items: ["map", "tickets", "charger"])
            try a.edit { try Self.trip("Lisbon", of: a, in: $0).items.reverse() }
            try b.edit { try Self.trip("Lisbon", of: b, in: $0).items.append(SyncItem(title: "passport")) }
            let (first, second) = appendPushedFirst ? (b, a) : (a, b)
            try first.sync()
            try second.sync()
            try first.sync()
            for (device, name) in [(a, "a"), (b, "b")] {
                let items = try Self.lisbonItems(of: device)
                problems.expect(
                    items == "charger,tickets,map,passport",
                    "\(name) holds a's order and the passport: \(items)")
            }
        }
    }

    /// Once the devices have synced, a round of syncs with no new commits pushes, reads and applies nothing,
    /// and writes nothing to the server; no server transaction was authored by a pull.
    public func aQuietRoundTransfersNothing() throws -> [String] {
        try withTwoDevices { a, b, problems in
            try a.edit { $0.insert(SyncTrip(name: "Lisbon", destination: "Lisbon", nights: 3)) }
            try b.edit { $0.insert(SyncTrip(name: "Oslo", destination: "Oslo", nights: 2)) }
            for _ in 0..<2 {
                try a.sync()
                try b.sync()
            }
            let before = try a.engine.server.fetchHistory(HistoryDescriptor()).count
            let outcomes = [try a.sync(), try b.sync()]
            let after = try a.engine.server.fetchHistory(HistoryDescriptor())
            for outcome in outcomes {
                problems.expect(
                    outcome.pushed == 0 && outcome.read == 0 && outcome.pulled == 0,
                    "a quiet round: \(outcome)")
            }
            problems.expect(after.count == before, "the server gained \(after.count - before) transactions")
            let authors = Set(after.compactMap(\.author))
            problems.expect(authors == ["device:a", "device:b"], "only the devices' pushes: \(authors)")
        }
    }

    /// The server's history is trimmed past a device's pull token while the device has unpushed work: the
    /// device rebuilds from a full copy and keeps its work, and everyone converges.
    public func anExpiredPullTokenResynchronisesAndKeepsUnpushedWork() throws -> [String] {
        try withTwoDevices { a, b, problems in
            try Self.bothHoldLisbon(a, b)
            try b.edit { context in
                try Self.trip("Lisbon", of: b, in: context).nights = 8
                context.insert(SyncTrip(name: "Rome", destination: "Rome", nights: 1))
            }
            try a.edit { try Self.trip("Lisbon", of: a, in: $0).destination = "Lisbon and Cascais" }
            try a.edit { $0.insert(SyncTrip(name: "Oslo", destination: "Oslo", nights: 2)) }
            try a.sync()
            let server = a.engine.server
            if let newest = try server.fetchHistory(HistoryDescriptor()).last?.token {
                try server.deleteHistory(HistoryDescriptor(predicate: HistoryPredicates.through(newest)))
            }
            let outcome = try b.sync()
            try a.sync()
            problems.expect(outcome.resynchronised, "b resynchronised: \(outcome)")
            problems.expect(b.engine.status.resynchronisationCount == 1, "counted: \(b.engine.status)")
            let state = try b.state()
            problems.expect(
                state.contains { $0.hasSuffix("Lisbon|Lisbon and Cascais|8||") }
                    && state.contains { $0.hasSuffix("Rome|Rome|1||") }
                    && state.contains { $0.hasSuffix("Oslo|Oslo|2||") },
                "everyone's work: \(state)")
        }
    }

    /// A device whose history was deleted before it pushed uploads its whole content (its values win), and
    /// nothing it made is lost.
    public func anExpiredPushTokenUploadsTheDeviceWhole() throws -> [String] {
        try withTwoDevices { a, b, problems in
            try Self.bothHoldLisbon(a, b)
            try b.edit { try Self.trip("Lisbon", of: b, in: $0).nights = 7 }
            try b.edit { $0.insert(SyncTrip(name: "Rome", destination: "Rome", nights: 1)) }
            if let newest = try b.store.fetchHistory(HistoryDescriptor()).last?.token {
                try b.store.deleteHistory(HistoryDescriptor(predicate: HistoryPredicates.through(newest)))
            }
            let outcome = try b.sync()
            try a.sync()
            problems.expect(outcome.resynchronised, "b uploaded whole: \(outcome)")
            let state = try a.state()
            problems.expect(
                state.contains { $0.hasSuffix("Lisbon|Lisbon|7||") }
                    && state.contains { $0.hasSuffix("Rome|Rome|1||") },
                "b's work on a: \(state)")
        }
    }

    /// A device whose history was deleted before it pushed uploads its whole content, but where another device
    /// changed a value, moved an item or deleted a model since this one last pulled, the other device's edit
    /// stands: the stale device's old value is not an edit (it reverted them, and brought deleted models
    /// back). Its own unpushed edits still win.
    public func anExpiredPushTokenKeepsEditsMadeElsewhere() throws -> [String] {
        try withTwoDevices { a, b, problems in
            try Self.bothHoldLisbon(a, b, items: ["map", "tickets"])
            try a.edit { $0.insert(SyncTrip(name: "Oslo", destination: "Oslo", nights: 2)) }
            try a.sync()
            try b.sync()
            // a edits and pushes; b has not pulled it when its own history is lost.
            try a.edit { context in
                let lisbon = try Self.trip("Lisbon", of: a, in: context)
                lisbon.nights = 9
                lisbon.items.first { $0.title == "tickets" }?.trip = try Self.trip("Oslo", of: a, in: context)
            }
            try a.edit { context in
                context.insert(SyncTrip(name: "Rome", destination: "Rome", nights: 1))
                context.delete(try Self.trip("Oslo", of: a, in: context))
            }
            try a.sync()
            try b.edit { try Self.trip("Lisbon", of: b, in: $0).destination = "Porto" }
            if let newest = try b.store.fetchHistory(HistoryDescriptor()).last?.token {
                try b.store.deleteHistory(HistoryDescriptor(predicate: HistoryPredicates.through(newest)))
            }
            let outcome = try b.sync()
            try a.sync()
            problems.expect(outcome.resynchronised, "b uploaded whole: \(outcome)")
            for device in [a, b] {
                let state = try device.state()
                problems.expect(
                    state.contains { $0.hasSuffix("Lisbon|Porto|9||map") }
                        && !state.contains { $0.contains("Oslo|") || $0.contains("tickets") }
                        && state.contains { $0.hasSuffix("Rome|Rome|1||") },
                    "\(device.store.identifier): a's edits and b's: \(state)")
            }
        }
    }

    /// The server is erased (a new epoch): the devices' next syncs upload what they hold, nothing is lost,
    /// and everyone converges again.
    public func anErasedServerGetsTheDevicesModelsBack() throws -> [String] {
        try withTwoDevices { a, b, problems in
            try Self.bothHoldLisbonAndOslo(a, b)
            // a's last edit reaches the server, not b, before the server is erased.
            try a.edit { try Self.trip("Lisbon", of: a, in: $0).nights = 5 }
            try a.sync()
            try a.engine.server.erase()
            try b.edit { try Self.trip("Oslo", of: b, in: $0).nights = 4 }
            // Pull alone first: the expired token must not make the device drop what the server forgot.
            try a.engine.pull()
            try b.sync()
            try a.sync()
            let state = try a.state()
            problems.expect(
                state.count == 2 && state.contains { $0.hasSuffix("Lisbon|Lisbon|5||") }
                    && state.contains { $0.hasSuffix("Oslo|Oslo|4||") },
                "both trips, with a's and b's last edits: \(state)")
        }
    }

    /// A device's store is erased while it syncs (a reinstall): its next syncs upload what it made since,
    /// bring back everything the server holds, and lose nothing anyone pushed.
    public func anErasedDeviceGetsEverythingBack() throws -> [String] {
        try withTwoDevices { a, b, problems in
            try Self.bothHoldLisbonAndOslo(a, b)
            try a.store.erase()
            try a.edit { $0.insert(SyncTrip(name: "Rome", destination: "Rome", nights: 1)) }
            try a.sync()
            try b.sync()
            let state = try a.state()
            problems.expect(
                state.count == 3 && state.contains { $0.hasSuffix("Lisbon|Lisbon|3||") }
                    && state.contains { $0.hasSuffix("Oslo|Oslo|2||") }
                    && state.contains { $0.hasSuffix("Rome|Rome|1||") },
                "all three trips on the erased device: \(state)")
        }
    }

    /// A device on the first schema version edits notes on a server with the second: the attribute only the
    /// server knows keeps its value, and the device's edit arrives.
    public func anOlderDeviceKeepsAttributesItDoesNotKnow() throws -> [String] {
        let server = try makeServer(SyncSchemas.notesVersion2)
        let lab = try SyncLab(server: server)
        defer { lab.remove() }
        var problems = Problems()
        var note = SyncNoteVersion2()
        note.persistentModelID = PersistentIdentifier(
            storeIdentifier: server.identifier, entityName: "SyncNote", primaryKey: "n1")
        note.title = "Packing"
        note.color = "green"
        _ = try server.save(DataStoreSaveChangesRequest(inserted: [note.snapshot]))
        let old = try lab.device("old", schema: SyncNote.schema, models: [SyncNote.self])
        try old.sync()
        let id = PersistentIdentifier(storeIdentifier: "old", entityName: "SyncNote", primaryKey: "n1")
        let held = try old.store.fetch(
            DataStoreFetchRequest(
                descriptor: FetchDescriptor<SyncNote>(predicate: #Predicate { $0.persistentModelID == id }))
        ).snapshots
        problems.expect(
            held.count == 1 && held.first?[attribute: "title"] == .string("Packing"), "pulled: \(held)")
        _ = try old.store.save(
            DataStoreSaveChangesRequest(
                editingState: EditingState(author: "app"),
                updated: [DataStoreSnapshot(persistentIdentifier: id, values: ["rank": .integer(2)])]))
        try old.sync()
        let serverID = note.persistentModelID
        let row = try server.fetch(
            DataStoreFetchRequest(
                descriptor: FetchDescriptor<SyncNoteVersion2>(
                    predicate: #Predicate { $0.persistentModelID == serverID }))
        ).snapshots.first
        problems.expect(
            row?[attribute: "rank"] == .integer(2), "the edit arrived: \(String(describing: row))")
        problems.expect(
            row?[attribute: "color"] == .string("green"), "the colour kept: \(String(describing: row))")
        return problems.list
    }

    // MARK: Helpers

    private func withTwoDevices(
        resolver: @escaping SyncConflictResolver = { $0.local },
        _ body: (SyncDevice<Server>, SyncDevice<Server>, inout Problems) throws -> Void
    ) throws -> [String] {
        let lab = try SyncLab(server: try makeServer(SyncSchemas.trips))
        defer { lab.remove() }
        let a = try lab.device("a", resolver: resolver)
        let b = try lab.device("b", resolver: resolver)
        var problems = Problems()
        try body(a, b, &problems)
        // Every row ends converged: both devices and the server hold the same trips and items.
        try a.sync()
        try b.sync()
        let states = [try a.state(), try b.state(), try SyncLab<Server>.state(of: lab.server)]
        problems.expect(states[0] == states[2] && states[1] == states[2], "converged: \(states)")
        return problems.list
    }

    /// The start of most rows: device a plans a trip to Lisbon (3 nights) with `items` in that order, and both
    /// devices sync.
    static func bothHoldLisbon(
        _ a: SyncDevice<Server>, _ b: SyncDevice<Server>, items: [String] = []
    ) throws {
        try a.edit { context in
            let trip = SyncTrip(name: "Lisbon", destination: "Lisbon", nights: 3)
            context.insert(trip)
            for title in items { trip.items.append(SyncItem(title: title)) }
        }
        try a.sync()
        try b.sync()
    }

    /// The titles of the device's Lisbon items, in the list's order, joined by commas.
    static func lisbonItems(of device: SyncDevice<Server>) throws -> String {
        let context = ModelContext(device.container)
        return try trip("Lisbon", of: device, in: context).items.map(\.title).joined(separator: ",")
    }

    /// a plans Lisbon (3 nights), b plans Oslo (2 nights), and both devices hold both after three syncs.
    static func bothHoldLisbonAndOslo(_ a: SyncDevice<Server>, _ b: SyncDevice<Server>) throws {
        try a.edit { $0.insert(SyncTrip(name: "Lisbon", destination: "Lisbon", nights: 3)) }
        try b.edit { $0.insert(SyncTrip(name: "Oslo", destination: "Oslo", nights: 2)) }
        try a.sync()
        try b.sync()
        try a.sync()
    }

    static func trip(_ name: String, of device: SyncDevice<Server>, in context: ModelContext) throws
        -> SyncTrip
    {
        guard let trip = try device.trip(name, in: context) else {
            throw DataStoreError.invalidConfiguration(
                reason: "device \(device.store.identifier) has no trip \(name)")
        }
        return trip
    }
}

/// Failed expectations, in words.
struct Problems {
    var list: [String] = []

    mutating func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { list.append(message()) }
    }
}

/// The rows of ``SyncConflictTable``, for a parameterised test: one test case per row, for each server.
public enum SyncConflictRow: String, CaseIterable, Sendable, CustomStringConvertible {
    case differentAttributesBothSurvive
    case sameAttributeLaterPushWins
    case resolverSeesBaseLocalAndRemote
    case attributeWithoutPreviousValuesLaterPushWins
    case deleteBeatsConcurrentUpdate
    case updateOfADeletedModelIsDropped
    case uniqueNameCollisionMergesIntoTheFirstModel
    case linkToAModelDeletedElsewhereIsDropped
    case aReorderedListReachesEveryDevice
    case aReorderAndAnItemAddedElsewhereBothSurvive
    case anItemAddedElsewhereAndAReorderBothSurvive
    case aQuietRoundTransfersNothing
    case anExpiredPullTokenResynchronisesAndKeepsUnpushedWork
    case anExpiredPushTokenUploadsTheDeviceWhole
    case anExpiredPushTokenKeepsEditsMadeElsewhere
    case anErasedServerGetsTheDevicesModelsBack
    case anErasedDeviceGetsEverythingBack
    case anOlderDeviceKeepsAttributesItDoesNotKnow

    /// The row's name.
    public var description: String { rawValue }

    /// Runs the row against `table`'s servers; returns what broke, in words.
    public func check<Server>(_ table: SyncConflictTable<Server>) throws -> [String] {
        switch self {
        case .differentAttributesBothSurvive: try table.differentAttributesBothSurvive()
        case .sameAttributeLaterPushWins: try table.sameAttributeLaterPushWins()
        case .resolverSeesBaseLocalAndRemote: try table.resolverSeesBaseLocalAndRemote()
        case .attributeWithoutPreviousValuesLaterPushWins:
            try table.attributeWithoutPreviousValuesLaterPushWins()
        case .deleteBeatsConcurrentUpdate: try table.deleteBeatsConcurrentUpdate()
        case .updateOfADeletedModelIsDropped: try table.updateOfADeletedModelIsDropped()
        case .uniqueNameCollisionMergesIntoTheFirstModel:
            try table.uniqueNameCollisionMergesIntoTheFirstModel()
        case .linkToAModelDeletedElsewhereIsDropped: try table.linkToAModelDeletedElsewhereIsDropped()
        case .aReorderedListReachesEveryDevice: try table.aReorderedListReachesEveryDevice()
        case .aReorderAndAnItemAddedElsewhereBothSurvive:
            try table.aReorderAndAnItemAddedElsewhereBothSurvive()
        case .anItemAddedElsewhereAndAReorderBothSurvive:
            try table.anItemAddedElsewhereAndAReorderBothSurvive()
        case .aQuietRoundTransfersNothing: try table.aQuietRoundTransfersNothing()
        case .anExpiredPullTokenResynchronisesAndKeepsUnpushedWork:
            try table.anExpiredPullTokenResynchronisesAndKeepsUnpushedWork()
        case .anExpiredPushTokenUploadsTheDeviceWhole: try table.anExpiredPushTokenUploadsTheDeviceWhole()
        case .anExpiredPushTokenKeepsEditsMadeElsewhere: try table.anExpiredPushTokenKeepsEditsMadeElsewhere()
        case .anErasedServerGetsTheDevicesModelsBack: try table.anErasedServerGetsTheDevicesModelsBack()
        case .anErasedDeviceGetsEverythingBack: try table.anErasedDeviceGetsEverythingBack()
        case .anOlderDeviceKeepsAttributesItDoesNotKnow: try table.anOlderDeviceKeepsAttributesItDoesNotKnow()
        }
    }
}
