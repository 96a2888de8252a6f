#if PostgreSQL
    public import DataStoreCore

    extension PostgresDataStore: DataStoreBatching {
        /// Deletes every model of `T` that matches the request's predicate, as one SQL transaction: it locks the
        /// store's row as a save does (so no save commits between finding the matches and deleting them),
        /// selects the matches with the fetch's SQL (the predicate pushed into the `WHERE` clause where it can
        /// be, finished in Swift where it cannot), then deletes them as a save would, delete rules, unique
        /// values and the history row included.
        public func delete<T: PersistentModel>(_ request: DataStoreBatchDeleteRequest<T>) throws {
            try withTransaction("batch delete of \(T.entityName)") { connection in
                _ = try lockState(connection)
                let matches = try snapshots(
                    matching: request.fetchDescriptor, on: connection, operation: "batch delete")
                guard !matches.isEmpty else { return }
                _ = try SaveTransaction(store: self, connection: connection).run(
                    DataStoreSaveChangesRequest(
                        editingState: request.editingState,
                        deleted: matches.map {
                            DataStoreSnapshot(persistentIdentifier: $0.persistentIdentifier, values: [:])
                        }))
            }
        }
    }
#endif
