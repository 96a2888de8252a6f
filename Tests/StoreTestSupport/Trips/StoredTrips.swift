import DataStoreCore
public import DataStoreModels
import Foundation
import SampleTrips

/// The stored trips and items, read by a fresh context: each item's trip by name, and each trip's list.
public struct StoredTrips: Equatable, CustomStringConvertible {
    /// Item title to the name of the trip its `trip` names (`nil`: none).
    public var owners: [String: String?] = [:]
    /// Trip name to the titles its `bucketList` holds, in order.
    public var lists: [String: [String]] = [:]

    /// Reads what `container`'s store holds now, from the stored identifiers (nothing is loaded through a
    /// relationship, so a reference to a missing model shows as `missing <identifier>`).
    public init(_ container: ModelContainer) throws {
        try self.init(container, of: Trip.self)
    }

    /// What `context` shows of `model`'s owners and their items, read through the models' properties.
    public init<Model: ListOwningModel>(viewOf context: ModelContext, of model: Model.Type) throws {
        for owner in try context.fetch(FetchDescriptor<Model>()) {
            lists[owner.name] = owner.listedItems.map(Model.title(of:))
        }
        for item in try context.fetch(FetchDescriptor<Model.Item>()) {
            owners[Model.title(of: item)] = .some(Model.trip(of: item)?.name)
        }
    }

    /// Reads the trips of `model` and their items that `container`'s store holds now.
    public init<Model: ListOwningModel>(_ container: ModelContainer, of model: Model.Type) throws {
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Model>())
        let items = try context.fetch(FetchDescriptor<Model.Item>())
        var names: [PersistentIdentifier: String] = [:]
        for trip in trips { names[trip.persistentModelID] = trip.name }
        for item in items { names[item.persistentModelID] = Model.title(of: item) }
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
        for item in items {
            owners[Model.title(of: item)] = .some(name(item.snapshotValues[Model.ownerName]).first)
        }
        for trip in trips { lists[trip.name] = name(trip.snapshotValues[Model.listName]) }
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
