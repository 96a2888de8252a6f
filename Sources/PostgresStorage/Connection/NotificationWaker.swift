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
    /// Notifications are only hints. After ``refreshInterval`` without one it reports a change anyway, so a
    /// notification lost with a connection costs at most that long; a lost connection is replaced on the next
    /// wait, and the reconnect itself counts as a change (commits may have been missed meanwhile).
    final class NotificationWaker: HistoryFeedWaker {
        /// How long a feed goes without fetching when no notification arrives.
        static let refreshInterval: Duration = .seconds(5)
        /// How long one wait lasts before the feed checks for cancellation.
        static let waitInterval: Duration = .milliseconds(250)

        private let connectionString: String
        private let channel: String
        private var connection: PostgresConnection?
        private var sinceFetch: Duration = .zero

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

        func waitForChange() throws -> Bool {
            guard let connection, !connection.isBroken else {
                // Reconnect, and fetch: commits during the outage sent notifications nobody heard.
                Thread.sleep(forTimeInterval: 0.25)
                connection = try? listen()
                return connection != nil
            }
            var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
            let milliseconds =
                Int32(Self.waitInterval.components.seconds * 1_000)
                + Int32(Self.waitInterval.components.attoseconds / 1_000_000_000_000_000)
            _ = poll(&descriptor, 1, milliseconds)
            let arrived: [String]
            do {
                arrived = try connection.notifications()
            } catch {
                self.connection = nil
                return true
            }
            sinceFetch += Self.waitInterval
            if !arrived.isEmpty || sinceFetch >= Self.refreshInterval {
                sinceFetch = .zero
                return true
            }
            return false
        }
    }
#endif
