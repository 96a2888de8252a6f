public import DataStoreCore
public import Foundation
public import Observation

/// Keeps a fetch's results current as models change, in this context, in other contexts and in other
/// processes: SwiftData's `ResultsObserver`, for plain Swift code.
///
/// Create it with a descriptor (or a predicate and sort descriptors) and a context or container; its
/// initialisers run the first fetch and throw if it fails. Then iterate ``updates()``: the current results
/// first, then new results each time they change.
///
/// ```swift
/// let observer = try ResultsObserver(
///     filterBy: #Predicate<Trip> { $0.destination == "Tokyo" }, sortBy: [SortDescriptor(\.startDate)],
///     modelContext: context)
/// for try await snapshot in observer.updates() {
///     show(snapshot.results)
/// }
/// ```
///
/// With a `sectionBy` key path the results also come in sections (``sections``), and the key path is
/// prepended to the sort descriptors so that each section is contiguous.
///
/// What wakes it: the context's own unsaved changes (inserts, deletes, rollbacks, and edits of models that
/// report them), saves by any context of the container, and commits by other processes through each store's
/// `commitSignals()` (inotify, `LISTEN`/`NOTIFY`); an idle observer does no work. On every wake it fetches
/// again and reports new results only when the models, their order or any of their stored values differ.
///
/// The observer is `Observable`: ``results``, ``sections`` and ``fetchDescriptor`` are tracked, and change
/// when it refetches (during ``updates()``, ``refresh()``, or after a change of ``fetchDescriptor``,
/// ``filterBy`` or ``sortBy``). Like its context, it belongs to one isolation domain: create, iterate and
/// read it there. Differences from SwiftData: ``results`` is an array (there is no `FetchResultsCollection`),
/// and results are fetched again only while a consumer iterates ``updates()`` or calls ``refresh()``.
public final class ResultsObserver<Element: PersistentModel, SectionTitle: Hashable>: Observable {
    /// The context the observer fetches with, and whose unsaved changes it sees.
    public let modelContext: ModelContext
    /// The key path whose value groups the results into ``sections``, or `nil` for unsectioned results.
    public let sectionBy: KeyPath<Element, SectionTitle>?
    /// How often a store that cannot signal its commits (one that does not conform to `HistoryObserving`) is
    /// checked while ``updates()`` waits.
    public static var pollInterval: Duration { .milliseconds(100) }

    private let sectionSort: SortDescriptor<Element>?
    private let registrar = ObservationRegistrar()
    private var descriptor: FetchDescriptor<Element>
    private var current: [Element] = []
    private var fingerprint = Fingerprint()
    private var lastError: (any Error)?
    /// How many fetches the observer ran, to check that an idle one runs none.
    package private(set) var fetchCount = 0

    init(
        descriptor: FetchDescriptor<Element>, sectionBy: KeyPath<Element, SectionTitle>?,
        sectionSort: SortDescriptor<Element>?, modelContext: ModelContext
    ) throws {
        self.modelContext = modelContext
        self.sectionBy = sectionBy
        self.sectionSort = sectionSort
        self.descriptor = descriptor
        self.descriptor = sorted(descriptor)
        try refresh()
    }

    /// The fetch the observer runs. Setting it fetches again at once (a failure keeps the previous results
    /// and is kept in ``fetchError``); with a `sectionBy` key path, its sort is prepended again if missing.
    public var fetchDescriptor: FetchDescriptor<Element> {
        get {
            registrar.access(self, keyPath: \.fetchDescriptor)
            return descriptor
        }
        set {
            registrar.withMutation(of: self, keyPath: \.fetchDescriptor) { descriptor = sorted(newValue) }
            refreshKeepingError()
        }
    }

    /// The predicate of ``fetchDescriptor``; setting it fetches again.
    public var filterBy: Predicate<Element>? {
        get { fetchDescriptor.predicate }
        set { fetchDescriptor.predicate = newValue }
    }

    /// The sort descriptors of ``fetchDescriptor`` (the section's first when sectioned); setting them fetches
    /// again.
    public var sortBy: [SortDescriptor<Element>] {
        get { fetchDescriptor.sortBy }
        set { fetchDescriptor.sortBy = newValue }
    }

    /// The models that matched at the last fetch, in order.
    public var results: [Element] {
        registrar.access(self, keyPath: \.results)
        return current
    }

    /// ``results`` in sections by ``sectionBy``, in order of each section's first model; `nil` for an
    /// observer without a `sectionBy` key path.
    public var sections: SectionedResults<Element, SectionTitle>? {
        guard let sectionBy else { return nil }
        return SectionedResults(results) { $0[keyPath: sectionBy] }
    }

    /// The error of the last fetch a setter started, or `nil` when it succeeded.
    public var fetchError: (any Error)? { lastError }

    /// The current results and sections.
    public var snapshot: ResultsSnapshot<Element, SectionTitle> {
        ResultsSnapshot(results: results, sections: sections)
    }

    /// Fetches again now.
    ///
    /// - Throws: The context's fetch errors; the previous results stay.
    public func refresh() throws {
        try refetch()
    }

    /// The current results first, then new results each time they change, until the consuming task is
    /// cancelled. A fetch that fails ends the sequence with its error.
    public func updates() -> ResultsObserverUpdates<Element, SectionTitle> {
        ResultsObserverUpdates(observer: self)
    }

    /// Fetches again; whether the results differ from the previous ones.
    @discardableResult
    func refetch() throws -> Bool {
        fetchCount += 1
        let models = try modelContext.fetch(descriptor)
        let print = Fingerprint(models)
        guard print != fingerprint else { return false }
        registrar.withMutation(of: self, keyPath: \.results) {
            current = models
            fingerprint = print
        }
        return true
    }

    private func refreshKeepingError() {
        do {
            try refetch()
            lastError = nil
        } catch {
            lastError = error
        }
    }

    /// `descriptor` with the section's sort first.
    private func sorted(_ descriptor: FetchDescriptor<Element>) -> FetchDescriptor<Element> {
        guard let sectionSort, descriptor.sortBy.first != sectionSort else { return descriptor }
        var sorted = descriptor
        sorted.sortBy.insert(sectionSort, at: 0)
        return sorted
    }

    /// What tells one set of results from another: the models in order, and each one's stored values (the
    /// instances themselves are refreshed in place, so comparing them would miss a change).
    private struct Fingerprint: Equatable {
        var identifiers: [PersistentIdentifier] = []
        var values: [[String: SnapshotValue]] = []

        init() {}

        init(_ models: [Element]) {
            identifiers = models.map(\.persistentModelID)
            values = models.map(\.snapshotValues)
        }
    }
}
