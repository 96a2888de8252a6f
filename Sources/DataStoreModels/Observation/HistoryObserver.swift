@_spi(DataStoreInternals) public import DataStoreCore
import Foundation
import Synchronization

/// Follows a container's merged history as any process commits to its stores, filtered by model types and
/// authors: SwiftData's `HistoryObserver`, as an `AsyncSequence` of the matching transactions (there is no
/// `@Observable` here). The widget article's "react to the widget's change" is:
///
/// ```swift
/// let observer = HistoryObserver(historyTokens: savedToken, authors: ["widget"], modelContainer: container)
/// for try await transaction in observer.transactions() {
///     savedToken = observer.historyTokens   // persist it: the next launch resumes here
///     refresh(transaction)
/// }
/// ```
///
/// While it has nothing to hand out it sleeps until a store signals a commit (see `HistoryObserving`'s
/// `commitSignals()`): inotify on the file stores' commit files on Linux, `LISTEN`/`NOTIFY` on PostgreSQL, an
/// in-process call for the in-memory store and for every save of this container's contexts. A commit by any
/// process arrives within milliseconds, and an idle observer does no work. Only where a store has no signal
/// (the file stores on platforms without inotify poll their directory every 250 ms; a store that does not
/// conform to `HistoryObserving` is asked every ``pollInterval``) does it look on a timer. It reads a page
/// at a time, when the consumer asks, so memory stays bounded. Transactions that do not
/// match the filters still move ``historyTokens`` forward. A store that is erased or loses the history after
/// the observer's position ends the sequence with `historyTokenExpired` (its `reason` says which);
/// nothing stored is touched.
public final class HistoryObserver: Sendable {
    /// The container whose stores are observed.
    public let modelContainer: ModelContainer
    /// The entities a transaction must change to be reported; empty reports every transaction.
    public let observedEntityNames: Set<String>
    /// The authors whose transactions are reported; empty reports every author.
    public let authors: Set<String>
    /// How often a store that cannot signal its commits (one that does not conform to `HistoryObserving`) is
    /// asked for new transactions. Stores that signal are not polled.
    public let pollInterval: Duration
    private let position: Lock<CompositeHistoryToken>
    private let events = Lock(0)
    private let lookCount = Lock(0)

    /// Creates an observer.
    ///
    /// - Parameters:
    ///   - historyTokens: Where to start (transactions after it are reported); `nil` starts at the newest
    ///     transaction, so only what commits from now on is reported.
    ///   - observedModels: Report only transactions that change one of these types; empty for all.
    ///   - authors: Report only transactions by these authors; empty for all.
    ///   - modelContainer: The container to observe.
    ///   - pollInterval: How often to ask a store that cannot signal its commits.
    /// - Throws: The container's token errors when `historyTokens` is given and invalid (unknown store,
    ///   expired, another epoch), or a store's error while finding the newest position.
    public init(
        historyTokens: CompositeHistoryToken? = nil, observedModels: [any PersistentModel.Type] = [],
        authors: Set<String> = [], modelContainer: ModelContainer, pollInterval: Duration = .milliseconds(100)
    ) throws {
        self.modelContainer = modelContainer
        self.observedEntityNames = Set(observedModels.map { $0.entityName })
        self.authors = authors
        self.pollInterval = pollInterval
        let start: CompositeHistoryToken
        if let historyTokens {
            // Validates the token now: a stale one fails here, not in the middle of observing.
            _ = try modelContainer.fetchHistory(Self.after(historyTokens, limit: 0))
            start = historyTokens
        } else {
            start = try Self.newest(in: modelContainer)
        }
        position = Lock(start)
    }

    /// The position after the last transaction examined: save it to resume after a restart.
    public var historyTokens: CompositeHistoryToken { position.withLock { $0 } }

    /// How many matching transactions the observer has reported.
    public var eventCounter: Int { events.withLock { $0 } }

    /// How many times ``transactions()`` sequences read the container, to check that an idle observer sleeps.
    package var looks: Int { lookCount.withLock { $0 } }

    /// How many transactions the observer reads from the container at a time.
    public static let pageSize = 256

    /// The matching transactions after ``historyTokens``, then each new one as any process commits it, until
    /// the consuming task is cancelled.
    ///
    /// The sequence is pulled: each element is read when the consumer asks for the next one, a page of at most
    /// ``pageSize`` transactions at a time, so a slow consumer never makes the observer hold more than one page.
    /// ``historyTokens`` moves to each transaction as it is handed to the consumer (and past transactions that
    /// do not match once everything before them was handed out), so a consumer that saves it after handling a
    /// transaction resumes right after that transaction.
    public func transactions() -> AsyncThrowingStream<ContainerHistoryTransaction, any Error> {
        let reader = PageReader(start: historyTokens)
        // Subscribed before the first look, so no commit after it goes unsignalled.
        let gate = ChangeSignalGate(observing: modelContainer)
        return AsyncThrowingStream { [self] in
            while true {
                if let next = reader.take() {
                    position.withLock { $0 = $0.merging(next.transaction.token) }
                    if next.isLastOfPage { position.withLock { $0 = $0.merging(reader.pageEnd) } }
                    events.withLock { $0 += 1 }
                    return next.transaction
                }
                // Everything read so far was handed out: the position covers the non-matching rest too.
                let end = reader.pageEnd
                position.withLock { $0 = $0.merging(end) }
                lookCount.withLock { $0 += 1 }
                let page = try modelContainer.fetchHistory(Self.after(end, limit: Self.pageSize))
                guard let last = page.last else {
                    await gate.wait(upTo: gate.needsPolling ? pollInterval : nil)
                    if Task.isCancelled { return nil }  // the sequence ends
                    continue
                }
                reader.load(page.filter(matches), end: last.token)
            }
        }
    }

    /// The page a ``transactions()`` sequence is handing out, and where its reading ended.
    private final class PageReader: Sendable {
        private struct State {
            var matches: [ContainerHistoryTransaction] = []
            var next = 0
            var end: CompositeHistoryToken
        }

        private let state: Lock<State>

        init(start: CompositeHistoryToken) {
            state = Lock(State(end: start))
        }

        /// The position after the last transaction read.
        var pageEnd: CompositeHistoryToken { state.withLock { $0.end } }

        func load(_ matches: [ContainerHistoryTransaction], end: CompositeHistoryToken) {
            state.withLock { $0 = State(matches: matches, next: 0, end: end) }
        }

        /// The next matching transaction of the page, if any, and whether it is the page's last.
        func take() -> (transaction: ContainerHistoryTransaction, isLastOfPage: Bool)? {
            state.withLock { state in
                guard state.next < state.matches.count else { return nil }
                defer { state.next += 1 }
                return (state.matches[state.next], state.next == state.matches.count - 1)
            }
        }
    }

    /// Reads what came after ``historyTokens`` once, moves the position past it, and returns the matching
    /// transactions: for callers with their own schedule (an app coming to the foreground).
    public func fetchNewTransactions() throws -> [ContainerHistoryTransaction] {
        let start = historyTokens
        let new = try modelContainer.fetchHistory(Self.after(start, limit: nil))
        guard let last = new.last else { return [] }
        let matches = new.filter(matches)
        position.withLock { $0 = $0.merging(last.token) }
        events.withLock { $0 += matches.count }
        return matches
    }

    func matches(_ transaction: ContainerHistoryTransaction) -> Bool {
        if !authors.isEmpty, !authors.contains(transaction.author ?? "") { return false }
        if !observedEntityNames.isEmpty,
            !transaction.changes.contains(where: {
                observedEntityNames.contains($0.changedPersistentIdentifier.entityName)
            })
        {
            return false
        }
        return true
    }

    static func after(_ token: CompositeHistoryToken, limit: Int?) -> HistoryDescriptor<
        ContainerHistoryTransaction
    > {
        HistoryDescriptor(predicate: #Predicate { $0.token > token }, fetchLimit: limit)
    }

    /// The container's newest position: each store's newest transaction.
    static func newest(in container: ModelContainer) throws -> CompositeHistoryToken {
        var token = CompositeHistoryToken()
        for store in container.stores {
            if let newest = try store.newestPosition() { token.components[store.identifier] = newest }
        }
        return token
    }
}
