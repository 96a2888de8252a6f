import DataStoreCore
public import DataStoreModels
import Foundation
import SampleTrips

/// One editor of the seeds' trips and bucket-list items, driven by text commands: a context in the test
/// process, or the same code in a helper process reading commands from its standard input. Editors act on
/// their own, possibly stale, view of the models, as an app and its widget do.
///
/// Commands (numbers pick a model of the editor's view, modulo its size; names stay unique across editors):
/// - `refresh`: fetches every trip and item again;
/// - `addTrip`, `append T`: inserts a trip, or a new item into trip T's list;
/// - `move I T` (sets the item's `trip`), `adopt I T` (appends the item to trip T's list), `detach I`;
/// - `reverse T`: reverses trip T's list (a reorder);
/// - `deleteTrip T`, `deleteItem I`;
/// - `destination T WORD`, `endDay T N` (sets the trip's `endDate` to day N);
/// - `purge T`: a batch delete (`delete(model:where:)`) of the items whose trip has trip T's name, at the next save;
/// - `rollback`: discards the unsaved changes, keeping the editor's view (models it inserted stay in it, detached);
/// - `save`: answers `SAVED`, or `FAILED <code>` after rolling the context back and refreshing.
public final class TripEditor {
    private var context: ModelContext
    private let author: String
    private var trips: [Trip] = []
    private var items: [BucketListItem] = []
    private var made = 0

    /// An editor saving under `author`.
    public init(container: ModelContainer, author: String) {
        self.author = author
        context = ModelContext(container)
        context.author = author
    }

    /// Performs one command and returns the one-line answer.
    public func perform(_ command: String) -> String {
        let words = command.split(separator: " ").map(String.init)
        let numbers = words.dropFirst().compactMap(Int.init)
        do {
            switch words.first {
            case "refresh":
                try refresh()
            case "addTrip":
                made += 1
                let trip = Trip(name: "\(author) trip \(made)", destination: "d", startDay: made, days: 1)
                context.insert(trip)
                trips.append(trip)
            case "append":
                guard let trip = pick(trips, numbers.first) else { return "SKIPPED" }
                made += 1
                let item = BucketListItem(title: "\(author) item \(made)")
                trip.bucketList.append(item)
                items.append(item)
            case "move":
                guard let item = pick(items, numbers.first), let trip = pick(trips, numbers.last) else {
                    return "SKIPPED"
                }
                item.trip = trip
            case "adopt":
                guard let item = pick(items, numbers.first), let trip = pick(trips, numbers.last) else {
                    return "SKIPPED"
                }
                if !trip.bucketList.contains(where: { $0 === item }) { trip.bucketList.append(item) }
            case "reverse":
                guard let trip = pick(trips, numbers.first) else { return "SKIPPED" }
                trip.bucketList.reverse()
            case "detach":
                guard let item = pick(items, numbers.first) else { return "SKIPPED" }
                item.trip = nil
            case "deleteTrip":
                guard let trip = pick(trips, numbers.first) else { return "SKIPPED" }
                context.delete(trip)
                trips.removeAll { $0 === trip }
            case "destination":
                guard let trip = pick(trips, numbers.first), words.count == 3 else { return "SKIPPED" }
                trip.destination = words[2]
            case "endDay":
                guard let trip = pick(trips, numbers.first), let day = numbers.last else { return "SKIPPED" }
                trip.endDate = Date(timeIntervalSinceReferenceDate: Double(day) * 86_400)
            case "deleteItem":
                guard let item = pick(items, numbers.first) else { return "SKIPPED" }
                context.delete(item)
                items.removeAll { $0 === item }
            case "purge":
                guard let trip = pick(trips, numbers.first) else { return "SKIPPED" }
                let name = trip.name
                try context.delete(model: BucketListItem.self, where: #Predicate { $0.trip?.name == name })
                return "OK \(name)"
            case "rollback":
                context.rollback()
            case "save":
                do {
                    try context.save()
                    return "SAVED"
                } catch {
                    context.rollback()
                    try refresh()
                    return "FAILED \((error as? DataStoreError)?.code.name ?? "\(error)")"
                }
            default:
                return "UNKNOWN \(command)"
            }
            return "OK"
        } catch {
            return "ERROR \(error)"
        }
    }

    private func refresh() throws {
        trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        items = try context.fetch(FetchDescriptor<BucketListItem>(sortBy: [SortDescriptor(\.title)]))
    }

    private func pick<T>(_ models: [T], _ number: Int?) -> T? {
        guard !models.isEmpty, let number else { return nil }
        return models[number % models.count]
    }
}

/// The stored trips and items, read by a fresh context: each item's trip by name, and each trip's list.
public struct StoredTrips: Equatable, CustomStringConvertible {
    /// Item title to the name of the trip its `trip` names (`nil`: none).
    public var owners: [String: String?] = [:]
    /// Trip name to the titles its `bucketList` holds, in order.
    public var lists: [String: [String]] = [:]

    /// Reads what `container`'s store holds now, from the stored identifiers (nothing is loaded through a
    /// relationship, so a reference to a missing model shows as `missing <identifier>`).
    public init(_ container: ModelContainer) throws {
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>())
        let items = try context.fetch(FetchDescriptor<BucketListItem>())
        var names: [PersistentIdentifier: String] = [:]
        for trip in trips { names[trip.persistentModelID] = trip.name }
        for item in items { names[item.persistentModelID] = item.title }
        func name(_ value: SnapshotValue?) -> [String] {
            let identifiers: [PersistentIdentifier]
            switch value {
            case .identifier(let id)?: identifiers = [id]
            case .array(let values)?:
                identifiers = values.compactMap { if case .identifier(let id) = $0 { id } else { nil } }
            default: identifiers = []
            }
            return identifiers.map { names[$0] ?? "missing \($0)" }
        }
        for item in items { owners[item.title] = .some(name(item.snapshotValues["trip"]).first) }
        for trip in trips { lists[trip.name] = name(trip.snapshotValues["bucketList"]) }
    }

    /// What is inconsistent between the two sides, in words; empty when both sides agree, every reference
    /// names a stored model, and no list holds an item twice.
    public var inconsistencies: [String] {
        var found: [String] = []
        for (item, owner) in owners {
            guard let owner else { continue }
            guard let list = lists[owner] else {
                found.append("\(item) points at trip \(owner), which is not stored")
                continue
            }
            if !list.contains(item) { found.append("\(item) points at \(owner), whose list lacks it") }
        }
        for (trip, list) in lists {
            if Set(list).count != list.count { found.append("\(trip) lists an item twice: \(list)") }
            for item in list where owners[item] != .some(trip) {
                found.append(
                    "\(trip) lists \(item), whose trip is \(String(describing: owners[item] ?? nil))")
            }
        }
        return found.sorted()
    }

    /// The titles of the items whose trip is `trip`.
    public func items(of trip: String) -> Set<String> {
        Set(owners.compactMap { $0.value == trip ? $0.key : nil })
    }

    /// Both sides, for failure messages.
    public var description: String { "owners \(owners), lists \(lists)" }
}

/// The seeds' app and widget as two helper processes editing one trip: both open the store (`open` is the
/// helper's command, `open DIR` or `open-postgres SCHEMA`) and read it; then the app sets trip 0's destination to
/// Porto and saves, and the widget, which still sees the old destination, sets its end to day 9 and saves.
/// Returns every answer, in order: all `OK` or `SAVED` when things went well.
public func appAndWidgetEditOneTrip(open: String) throws -> [String] {
    let app = try ChildProcess(["trip-editor", "app"], takesCommands: true)
    let widget = try ChildProcess(["trip-editor", "widget"], takesCommands: true)
    defer {
        for process in [app, widget] {
            process.closeInput()
            process.waitForExit(timeout: .seconds(10))
        }
    }
    var answers: [String] = []
    for process in [app, widget] {
        answers.append(process.request(open) ?? "no answer")
        answers.append(process.request("refresh") ?? "no answer")
    }
    for (process, command) in [
        (app, "destination 0 Porto"), (app, "save"), (widget, "endDay 0 9"), (widget, "save"),
    ] {
        answers.append(process.request(command) ?? "no answer")
    }
    return answers
}
