@_spi(DataStoreInternals) public import DataStoreCore

extension SyncEngine where Local: HistoryObserving, Server: HistoryObserving {
    /// Syncs in the background until ``stop()``: once now, then after every commit on the device's store or on
    /// the server, woken by the stores' own signals (the JSON file store's change feed, PostgreSQL's
    /// `LISTEN`/`NOTIFY`), never by a timer.
    ///
    /// A failed sync (the server unreachable, a conflict the store refused) is retried after 0.1 s, doubling
    /// with each failure in a row up to 30 s, or at the server's next commit if that comes first (the device's
    /// own commits do not cut the wait short); the status shows the error meanwhile. Local saves
    /// never wait for the sync: the engine holds no lock of the device's store between its own saves.
    ///
    /// Calling it again while running does nothing. The run keeps the engine alive until ``stop()``: stop it
    /// before the app exits or lets the engine go.
    public func start() {
        let run = ContinuousRun()
        let started = progress.withLock {
            guard $0.continuous == nil else { return false }
            $0.continuous = run
            return true
        }
        guard started else { return }
        run.relay(local.commitSignals(), fromServer: false)
        run.relay(server.commitSignals(), fromServer: true)
        run.start { [self] in
            do {
                try sync()
                return true
            } catch {
                // The status holds the error.
                return false
            }
        }
    }

    /// Stops the background sync started by ``start()``, waiting for a sync under way to finish.
    public func stop() {
        let run = progress.withLock {
            let run = $0.continuous
            $0.continuous = nil
            return run
        }
        run?.stop()
    }
}
