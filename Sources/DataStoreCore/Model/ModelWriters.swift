import Synchronization

/// How a fetch sets the attributes of a model it creates, derived once per model type.
///
/// A fetch sets every attribute of every model it returns. Through ``ModelAttribute/setValue(_:on:)`` each
/// set copies the attribute's declaration and, for an `@Attribute` property, goes through the property's
/// setter (two key path projections and a change note). A new model is tracked by no context, so its values
/// can go straight into the wrappers' storage; this table holds, per attribute, the writer that does that.
final class ModelWriters<Model: PersistentModel>: @unchecked Sendable {
    // `@unchecked`: immutable after creation; closures capture only key paths and offsets.

    /// One attribute: its name in snapshots, its position in `schemaAttributes`, and its writer (`nil` for a
    /// relationship, which a resolver sets).
    struct Entry {
        let name: String
        let position: Int
        let write: FreshWriter<Model>?
    }

    /// Whether some attribute or relationship is written in place, at an offset from the instance's address.
    let writesInPlace: Bool

    let entries: [Entry]
    /// How many attributes `entries` holds.
    private let attributeCount: Int
    /// The attributes' names by position.
    private let names: [String]
    /// The attributes' positions by name, for ``fill(_:from:resolver:)``.
    private let positions: AttributePositions
    /// By position, the writers of the attributes written in place (``InPlaceWriter/none`` where there is
    /// none): kept apart from `entries`, in a type that is not generic, so that the loop that writes them needs
    /// no type metadata at run time.
    private let inPlace: [InPlaceWriter]
    /// A bit per position (up to 64) that has a writer in `inPlace`.
    private let inPlacePositions: UInt64
    /// By position, the writers of the relationships whose storage a fresh model's faults are written to in
    /// place (without going through the attribute's declaration).
    private let faults: [(offset: Int, write: FreshFaultWriter)?]

    private init() {
        let storages = ChangeReportingDiscovery.attributeStorages(Model.self)
        entries = Model.schemaAttributes.enumerated().map { position, attribute in
            Entry(
                name: attribute.name, position: position,
                write: attribute.freshWriter(storage: storages[position]))
        }
        inPlace = entries.map { entry in
            guard case .inPlace(let offset, let write) = entry.write else { return .none }
            return InPlaceWriter(offset: offset, write: write)
        }
        var inPlacePositions: UInt64 = 0
        for entry in entries where entry.position < UInt64.bitWidth {
            if case .inPlace = entry.write { inPlacePositions |= 1 << entry.position }
        }
        self.inPlacePositions = inPlacePositions
        faults = Model.schemaAttributes.map { $0.relationship?.freshFaultWriter() }
        writesInPlace = inPlacePositions != 0 || faults.contains { $0 != nil }
        attributeCount = entries.count
        names = entries.map(\.name)
        positions = AttributePositions(entries.map(\.name))
    }

    /// A new model holding the snapshot's identifier and values, its relationships loaded through `resolver`.
    func make(_ snapshot: DataStoreSnapshot, resolver: (any RelatedModelResolving)?) throws(DataStoreError)
        -> Model
    {
        var model = Model()
        try fill(&model, from: snapshot.values, resolver: resolver)
        model.persistentModelID = snapshot.persistentIdentifier
        return model
    }

    /// Sets every attribute of `model`, which `init()` just made, from `values`; an attribute `values` lacks
    /// gets `null`, a name that is no attribute is ignored. It walks the snapshot's values once instead of
    /// looking up each attribute's name in them: the lookups hash every name, and were a quarter of a fetch.
    func fill(
        _ model: inout Model, from values: [String: SnapshotValue], resolver: (any RelatedModelResolving)?
    ) throws(DataStoreError) {
        // A class model's address, for the attributes written in place; `model` keeps the instance alive.
        let instance = writesInPlace ? StoredPropertyOffset.address(of: model) : nil
        // `attributeCount`, not `entries.count`: an array of a type nested in this generic class is itself
        // generic, and every use of it looks its type up in the runtime.
        guard attributeCount <= UInt64.bitWidth else {
            // More attributes than bits: one lookup each.
            for entry in entries {
                try set(
                    entry.position, values[entry.name] ?? .null, on: &model, instance: instance,
                    resolver: resolver)
            }
            return
        }
        var unset = UInt64.max >> (UInt64.bitWidth - attributeCount)
        if let instance {
            unset = InPlaceWriter.write(
                values, into: instance, writers: inPlace, written: inPlacePositions, positions: positions,
                unset: unset)
        }
        // What is left: relationships, attributes not written in place, values of the wrong kind (which throw
        // the typed error) and attributes the snapshot lacks.
        while unset != 0 {
            let position = unset.trailingZeroBitCount
            unset &= unset - 1
            try set(
                position, values[names[position]] ?? .null, on: &model, instance: instance, resolver: resolver
            )
        }
    }

    /// Sets the attribute at `position` through its writer, or through its declaration (a relationship, or a
    /// value of the wrong kind: the declaration sets it or throws the typed error).
    private func set(
        _ position: Int, _ value: SnapshotValue, on model: inout Model, instance: UnsafeMutableRawPointer?,
        resolver: (any RelatedModelResolving)?
    ) throws(DataStoreError) {
        // A relationship written in place first: `faults` is not generic, `entries` is.
        if let instance, let fault = faults[position] {
            switch value {
            case .null, .identifier, .array:
                fault.write(instance + fault.offset, value, resolver)
                return
            default:
                break  // Another kind: the declaration throws the typed error.
            }
        } else {
            switch entries[position].write {
            case .inPlace(let offset, let write): if let instance, write(instance + offset, value) { return }
            case .model(let write): if write(&model, value) { return }
            case nil: break
            }
        }
        try Model.schemaAttributes[position].setValue(value, on: &model, resolver: resolver, isFresh: true)
    }

    /// The table of `Model`, made on first use.
    static func of(_: Model.Type) -> ModelWriters {
        TypeTables.table(ModelWriters.self) { ModelWriters() }
    }
}
