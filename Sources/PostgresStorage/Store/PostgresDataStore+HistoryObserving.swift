#if PostgreSQL
    public import DataStoreCore
    import DataStoreKit

    extension PostgresDataStore: HistoryObserving {
        /// The transactions after `token`, then each new one as any connection commits it.
        ///
        /// The feed holds a connection of its own that `LISTEN`s on the store's channel; every save sends a
        /// `NOTIFY` that PostgreSQL delivers at `COMMIT`. A notification only wakes the feed, which then fetches
        /// after the last token it delivered, so a lost notification (a dropped connection) delays a transaction
        /// but never loses it: the feed reconnects its listener when the server comes back and fetches then,
        /// and fetches once a minute without any notification. Cancelling the consuming task closes the
        /// listening connection at once.
        public func historyUpdates(after token: PostgresHistoryToken?) -> AsyncThrowingStream<
            PostgresHistoryTransaction, any Error
        > {
            let connectionString = configuration.connectionString
            let channel = tables.channel(for: identifier)
            return HistoryFeed.stream(
                of: self, label: "postgres:\(tables.namespace):\(identifier)",
                waker: { NotificationWaker(connectionString: connectionString, channel: channel) },
                after: token)
        }

        /// Yields when any connection may have committed: a `LISTEN`ing connection of its own, as
        /// ``historyUpdates(after:)`` has, without reading any history.
        public func commitSignals() -> AsyncStream<Void> {
            let connectionString = configuration.connectionString
            let channel = tables.channel(for: identifier)
            return HistoryFeed.signals(
                label: "postgres:\(tables.namespace):\(identifier)",
                waker: { NotificationWaker(connectionString: connectionString, channel: channel) })
        }
    }
#endif
