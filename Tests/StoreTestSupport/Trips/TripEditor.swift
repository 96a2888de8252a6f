import DataStoreCore
public import DataStoreModels
import Foundation
import SampleTrips

/// One editor of the seeds' trips and bucket-list items (``Trip`` or ``PlainTrip``), driven by text commands: a context in the test
/// process, or the same code in a helper process reading commands from its standard input. Editors act on
/// their own, possibly stale, view of the models, as an app and its widget do.
///
/// Commands (numbers pick a model of the editor's view, modulo its size; names stay unique across editors):
/// - `refresh`: fetches every trip and item again;
/// - `addTrip`, `append T`: inserts a trip, or a new item into trip T's list;
/// - `move I T` (sets the item's `trip`), `adopt I T` (appends the item to trip T's list), `detach I`;
/// - `reverse T`: reverses trip T's list (a reorder); `clear T` empties it (`nil` for an optional list);
/// - `deleteTrip T`, `deleteItem I`;
/// - `destination T WORD`, `endDay T N` (sets the trip's `endDate` to day N);
/// - `purge T`: a batch delete (`delete(model:where:)`) of the items whose trip has trip T's name, at the next save;
/// - `rollback`: discards the unsaved changes, keeping the editor's view (models it inserted stay in it, detached);
/// - `save`: answers `SAVED`, or `FAILED <code>` after rolling the context back and refreshing.
public final class TripEditor<Model: EditableTrip> {
    private var context: ModelContext
    private let author: String
    private var trips: [Model] = []
    private var items: [Model.Item] = []
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
                let trip = Model.make(name: "\(author) trip \(made)", day: made)
                context.insert(trip)
                trips.append(trip)
            case "append":
                guard let trip = pick(trips, numbers.first) else { return "SKIPPED" }
                made += 1
                let item = Model.makeItem(title: "\(author) item \(made)")
                trip.append(item)
                items.append(item)
            case "move":
                guard let item = pick(items, numbers.first), let trip = pick(trips, numbers.last) else {
                    return "SKIPPED"
                }
                Model.setTrip(trip, of: item)
            case "adopt":
                guard let item = pick(items, numbers.first), let trip = pick(trips, numbers.last) else {
                    return "SKIPPED"
                }
                if !trip.listedItems.contains(where: { $0 === item }) { trip.append(item) }
            case "reverse":
                guard let trip = pick(trips, numbers.first) else { return "SKIPPED" }
                trip.reverseList()
            case "clear":
                guard let trip = pick(trips, numbers.first) else { return "SKIPPED" }
                trip.clearList()
            case "detach":
                guard let item = pick(items, numbers.first) else { return "SKIPPED" }
                Model.setTrip(nil, of: item)
            case "deleteTrip":
                guard let trip = pick(trips, numbers.first) else { return "SKIPPED" }
                context.delete(trip)
                trips.removeAll { $0 === trip }
            case "destination":
                guard let trip = pick(trips, numbers.first), words.count == 3 else { return "SKIPPED" }
                trip.setDestination(words[2])
            case "endDay":
                guard let trip = pick(trips, numbers.first), let day = numbers.last else { return "SKIPPED" }
                trip.setEndDate(Date(timeIntervalSinceReferenceDate: Double(day) * 86_400))
            case "deleteItem":
                guard let item = pick(items, numbers.first) else { return "SKIPPED" }
                context.delete(item)
                items.removeAll { $0 === item }
            case "purge":
                guard let trip = pick(trips, numbers.first) else { return "SKIPPED" }
                let name = trip.name
                try context.delete(model: Model.Item.self, where: Model.items(ofTripNamed: name))
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
        trips = try context.fetch(FetchDescriptor<Model>()).sorted { $0.name < $1.name }
        items = try context.fetch(FetchDescriptor<Model.Item>()).sorted {
            Model.title(of: $0) < Model.title(of: $1)
        }
    }

    private func pick<T>(_ models: [T], _ number: Int?) -> T? {
        guard !models.isEmpty, let number else { return nil }
        return models[number % models.count]
    }
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
