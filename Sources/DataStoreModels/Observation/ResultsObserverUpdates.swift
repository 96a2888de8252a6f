public import DataStoreCore

/// The sequence ``ResultsObserver/updates()`` returns: the observer's current results first, then new results
/// each time they change.
///
/// Each iterator subscribes to the observer's signals when it is made, and its first element comes from a
/// fresh fetch, so nothing that commits after the iteration starts is missed. It runs on the isolation of
/// the task that iterates, where the observer and its context belong.
public struct ResultsObserverUpdates<Model: PersistentModel, SectionTitle: Hashable>: AsyncSequence {
    /// One set of results.
    public typealias Element = ResultsSnapshot<Model, SectionTitle>
    /// A fetch's error ends the sequence.
    public typealias Failure = any Error

    let observer: ResultsObserver<Model, SectionTitle>

    /// An iterator that subscribes to the observer's signals now.
    public func makeAsyncIterator() -> Iterator {
        Iterator(
            observer: observer,
            gate: ChangeSignalGate(observing: observer.modelContext.container, context: observer.modelContext)
        )
    }

    /// Fetches again after each signal and hands out the results when they changed.
    public struct Iterator: AsyncIteratorProtocol {
        let observer: ResultsObserver<Model, SectionTitle>
        let gate: ChangeSignalGate
        var started = false

        /// The next results, on the caller's isolation; `nil` once the task is cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error)
            -> ResultsSnapshot<Model, SectionTitle>?
        {
            if !started {
                started = true
                try observer.refetch()
                return observer.snapshot
            }
            while true {
                await gate.wait(
                    upTo: gate.needsPolling ? ResultsObserver<Model, SectionTitle>.pollInterval : nil)
                if Task.isCancelled { return nil }
                if try observer.refetch() { return observer.snapshot }
            }
        }

        /// The next results; prefer iterating with `for try await`, which keeps the caller's isolation.
        public mutating func next() async throws -> ResultsSnapshot<Model, SectionTitle>? {
            try await next(isolation: nil)
        }
    }
}
