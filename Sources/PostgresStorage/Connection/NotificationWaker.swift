#if PostgreSQL
    import Foundation
    import DataStoreKit

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Wakes a history feed when a `NOTIFY` arrives on a channel: a connection of its own that `LISTEN`s, and
    /// `poll` on its socket.
    ///
    /// PostgreSQL delivers every notification of a committed transaction to every session listening at the
    /// time, so while the connection lives a notification is never lost and the waker sleeps in `poll` until
    /// one arrives (or the feed is cancelled). A connection that breaks makes its socket readable: the waker
    /// then reports a change (commits may have been missed), and the next wait reconnects. As a last guard
    /// against a connection that died without a sign (a peer that vanished from the network), it reports a
    /// change after ``refreshInterval`` without any notification: an idle feed fetches once a minute.
    final class NotificationWaker: HistoryFeedWaker {
        /// How long a feed goes without fetching when no notification arrives.
        static let refreshInterval: Duration = .seconds(60)

        private let connectionString: String
        private let channel: String
        private var connection: PostgresConnection?

        init(connectionString: String, channel: String) {
            self.connectionString = connectionString
            self.channel = channel
            connection = try? listen()
        }

        private func listen() throws -> PostgresConnection {
            let connection = try PostgresConnection(connectionString: connectionString)
            let quoted = "\"" + channel.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            try connection.execute("LISTEN \(quoted)")
            return connection
        }

        func waitForChange(orUntil cancellation: FeedCancellation) throws -> Bool {
            guard let connection, !connection.isBroken else {
                // Reconnect, and fetch: commits during the outage sent notifications nobody heard.
                guard cancellation.sleep(for: .milliseconds(250)) else { return false }
                connection = try? listen()
                return connection != nil
            }
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: Self.refreshInterval)
            while !cancellation.isCancelled {
                var descriptors = [
                    pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: cancellation.descriptor, events: Int16(POLLIN), revents: 0),
                ]
                let left = max(.zero, clock.now.duration(to: deadline))
                _ = poll(&descriptors, 2, cancellation.pollTimeout(upTo: left))
                let arrived: [String]
                do {
                    arrived = try connection.notifications()
                } catch {
                    self.connection = nil
                    return true
                }
                if !arrived.isEmpty || clock.now >= deadline { return true }
            }
            return false
        }
    }
#endif
