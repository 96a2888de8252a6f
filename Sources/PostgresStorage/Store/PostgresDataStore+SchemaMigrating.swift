#if PostgreSQL
    @_spi(DataStoreInternals) public import DataStoreCore
    import Synchronization

    extension PostgresDataStore: SchemaMigrating {
        /// The schema the store's rows are written in, from its `stores` row.
        public func recordedSchema() throws -> Schema? {
            try withConnection("read the schema") {
                try SchemaRecord(store: self, connection: $0).read().schema
            }
        }

        /// Applies `changes` (planned against the current schema), moves every row to `schema` and records it,
        /// in one SQL transaction holding the store's row lock: another connection sees the store before or
        /// after, never between. Instances opened elsewhere under the old layout throw `schemaChanged` from
        /// their next save or history fetch.
        @discardableResult
        public func migrate(to schema: Schema, applying changes: DataStoreSaveChangesRequest?) throws
            -> PostgresHistoryToken?
        {
            try schema.validateRelationships()
            let (token, generation) = try withTransaction("migrate") { connection in
                try checkSchemaGeneration(try lockState(connection))
                let token = try changes.flatMap {
                    try SaveTransaction(store: self, connection: connection).run($0).token
                }
                return (token, try SchemaRecord(store: self, connection: connection).move(to: schema))
            }
            enforced.withLock { $0 = Enforced(schema: schema, generation: generation) }
            return token
        }
    }
#endif
