import DataStoreCore
import Foundation
import JSONFileStorage
import TimeSeriesStorage

#if PostgreSQL
    import PostgresStorage
#endif

/// `datastore schema PATH`.
enum SchemaCommand {
    static func run(_ directory: URL, output: (String) -> Void) throws {
        guard let schema = try recordedSchema(directory) else {
            output("The store records no schema (it was written before schemas were recorded).")
            return
        }
        output("version  \(schema.version.map { "\($0)" } ?? "none")")
        for entity in schema.entities {
            output("")
            output("entity \(entity.name)")
            for attribute in entity.attributes {
                var parts = ["  \(attribute.name): \(attribute.valueKind ?? "any")"]
                if let relationship = entity.relationship(named: attribute.name) {
                    let target =
                        relationship.isToMany ? "[\(relationship.destination)]" : relationship.destination
                    parts = [
                        "  \(attribute.name): relationship to \(target)",
                        "deleteRule: \(relationship.deleteRule)",
                    ]
                    if let inverse = relationship.inverse { parts.append("inverse: \(inverse)") }
                }
                if attribute.options.contains(.unique) { parts.append("unique") }
                if attribute.options.contains(.preserveValueOnDeletion) {
                    parts.append("preserveValueOnDeletion")
                }
                if attribute.options.contains(.preservePreviousValue) {
                    parts.append("preservePreviousValue")
                }
                if let original = attribute.originalName { parts.append("originalName: \(original)") }
                if let value = attribute.defaultValue, entity.relationship(named: attribute.name) == nil {
                    parts.append("default: \(value.userDescription)")
                }
                output(parts.joined(separator: "  "))
            }
            for constraint in entity.compoundUniqueConstraints {
                output("  unique together: \(constraint.joined(separator: ", "))")
            }
        }
    }

    /// The schema the store in `directory` records, read without writing anything.
    static func recordedSchema(_ directory: URL) throws -> Schema? {
        switch try OpenedStore.open(directory) {
        case .jsonFile(let store): try store.recordedSchema()
        case .timeSeries(let store): try store.recordedSchema()
        #if PostgreSQL
            case .postgres(let store): try store.recordedSchema()
        #endif
        }
    }
}
