#if PostgreSQL
    import DataStoreCore
    import Foundation
    import DataStoreKit

    /// One row of the `unique_values` table: an entity, a uniqueness constraint's attributes and the values a
    /// model holds in them, spelled so that values `SnapshotValue`'s `==` finds equal have equal keys.
    struct UniqueValueKey: Hashable {
        var entity: String
        /// The constraint's attribute names, joined by commas.
        var attributes: String
        /// The values in the store's JSON: NFC strings, `0.0` for `-0.0`.
        var value: String

        init(entity: String, attributes: [String], values: [SnapshotValue]) {
            self.entity = entity
            self.attributes = attributes.joined(separator: ",")
            var writer = JSONWriter()
            writer.beginArray()
            for value in values { writer.value(Self.normalized(value)) }
            writer.endArray()
            value = String(decoding: writer.bytes, as: UTF8.self)
        }

        /// The `unique_key` column of this value in `store`.
        func column(store: String) -> String {
            StoreTables.key(store, entity, attributes, value)
        }

        /// The keys a row holds under `schema`; a constraint with a `nil` value holds nothing (any number of
        /// models may hold `nil`, as in SQL).
        static func keys(of row: DataStoreSnapshot, schema: Schema?) -> [UniqueValueKey] {
            guard let entity = schema?.entity(named: row.persistentIdentifier.entityName) else { return [] }
            return entity.uniqueConstraints.compactMap { attributes in
                let values = attributes.map { row[attribute: $0] }
                return values.contains(.null)
                    ? nil : UniqueValueKey(entity: entity.name, attributes: attributes, values: values)
            }
        }

        private static func normalized(_ value: SnapshotValue) -> SnapshotValue {
            switch value {
            case .string(let text): .string(FieldProjection.normalized(text))
            case .double(let number) where number == 0: .double(0)
            default: value
            }
        }
    }
#endif
