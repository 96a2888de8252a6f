import DataStoreCore

extension ModelContainer {
    /// Saves what this container's autosaving contexts (its ``mainContext``) hold, then asks each store that
    /// keeps accepted work in memory (`DataStoreFlushing`: a time-series store's commit window) to commit it.
    /// Afterwards everything saved or accepted so far is in the stores, as after a normal exit.
    ///
    /// The main context belongs to the main actor: called on the main thread (or the main queue), it saves
    /// there and then; called on another thread, it sends the save to the main queue and waits for it (so
    /// never call it from a thread the main thread is waiting for). A failed autosave goes to the context's
    /// ``ModelContext/autosaveErrorHandler``, as every autosave does; a store's flush failure is thrown.
    ///
    /// - Throws: `DataStoreError.containerClosed(stores:)` after ``close()``; `invalidConfiguration` when the
    ///   main queue did not run the main context's save within 30 seconds (nothing was flushed then); what a
    ///   store's flush throws.
    public func flush() throws {
        try lifecycle.use {
            try saveAutosavingContexts()
            try flushStores()
        }
    }

    /// Flushes (see ``flush()``), then closes the container: every later fetch, save or history read through
    /// it or any of its contexts throws `DataStoreError.containerClosed(stores:)` and touches no store.
    ///
    /// - A save that another thread is running when `close()` is called finishes first (`close()` waits for
    ///   it), and whatever it accepted is flushed; a save started after `close()` began throws and writes
    ///   nothing.
    /// - Closing a closed container does nothing.
    /// - The stores are released with the container; the built-in ones hold nothing unwritten once flushed,
    ///   so closing is what makes a program's data safe before it exits, without relying on the exit handler.
    ///
    /// - Throws: `invalidConfiguration` when the main queue did not run the main context's save within 30
    ///   seconds (see ``flush()``; the container then stays open and nothing is lost); what a store's flush
    ///   throws (the container is closed all the same).
    public func close() throws {
        guard !lifecycle.isClosed else { return }
        // The autosaving contexts save while the container is open; then no new operation may start, and the
        // stores commit what the operations that were under way left in memory.
        try saveAutosavingContexts()
        _ = try lifecycle.close { try flushStores() }
    }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { lifecycle.isClosed }

    /// Saves this container's autosaving contexts on the main queue's behalf (see ``flush()``).
    private func saveAutosavingContexts() throws {
        guard AutosavingContexts.shared.hasContexts(of: self) else { return }
        let ran = MainQueueAtExit.run(waitingAtMost: .seconds(30)) {
            AutosavingContexts.shared.saveAll(of: self)
        }
        guard ran else {
            throw DataStoreError.invalidConfiguration(
                reason:
                    "the main queue did not save the main context within 30 s; call flush() or close() from the "
                    + "main thread, or from a thread the main thread does not wait for")
        }
    }

    /// Commits the open work of every store that holds some in memory.
    private func flushStores() throws {
        for connection in stores {
            if let flushing = connection.store as? any DataStoreFlushing { try flushing.flush() }
        }
    }
}
