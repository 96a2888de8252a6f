import DataStoreCore
import InMemoryStorage

extension SabotagedStore: SchemaMigrating {
    func recordedSchema() throws -> Schema? {
        sabotage == .schemaNotRecorded ? nil : try base.recordedSchema()
    }

    func migrate(to schema: Schema, applying changes: DataStoreSaveChangesRequest?) throws
        -> InMemoryHistoryToken?
    {
        var target = schema
        if sabotage == .renamedValuesDropped {
            // Renames forgotten: the old attribute is dropped and the new one filled with its default.
            for index in target.entities.indices {
                for attribute in target.entities[index].attributes.indices {
                    target.entities[index].attributes[attribute].originalName = nil
                }
            }
        }
        do {
            return try base.migrate(to: target, applying: changes)
        } catch let error as DataStoreError
            where error.code == .incompatibleSchema && sabotage == .unsafeSchemaAccepted
        {
            return nil  // as a store that never checked would: no error, nothing migrated
        }
    }
}
