public import DataStoreCore
public import Foundation

extension ResultsObserver where SectionTitle == Never {
    /// An unsectioned observer of `fetchDescriptor`'s results in `modelContext`, used where it is made (the
    /// caller's isolation, as its context's).
    ///
    /// - Throws: The first fetch's error.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: fetchDescriptor, sectionBy: nil, sectionSort: nil, modelContext: modelContext)
    }

    /// An unsectioned observer of `fetchDescriptor`'s results, through a new context of `modelContainer`.
    ///
    /// - Throws: The first fetch's error.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(),
        modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(fetchDescriptor: fetchDescriptor, modelContext: ModelContext(modelContainer))
    }

    /// An unsectioned observer of the models that match `filterBy`, in the order of `sortBy`.
    ///
    /// - Throws: The first fetch's error.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []),
            modelContext: modelContext)
    }

    /// An unsectioned observer of the models that match `filterBy`, through a new context of
    /// `modelContainer`.
    ///
    /// - Throws: The first fetch's error.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(filterBy: filterBy, sortBy: sortBy, modelContext: ModelContext(modelContainer))
    }
}

extension ResultsObserver where SectionTitle == String {
    /// An observer of `fetchDescriptor`'s results in sections by `sectionBy`.
    ///
    /// - Throws: The first fetch's error.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(),
        sectionBy: any KeyPath<Element, String> & Sendable, modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: fetchDescriptor, sectionBy: sectionBy, sectionSort: SortDescriptor(sectionBy),
            modelContext: modelContext)
    }

    /// An observer of `fetchDescriptor`'s results in sections by `sectionBy`, through a new context of
    /// `modelContainer`.
    ///
    /// - Throws: The first fetch's error.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(),
        sectionBy: any KeyPath<Element, String> & Sendable, modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: fetchDescriptor, sectionBy: sectionBy, modelContext: ModelContext(modelContainer)
        )
    }

    /// An observer of the models that match `filterBy`, in sections by `sectionBy`.
    ///
    /// - Throws: The first fetch's error.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: any KeyPath<Element, String> & Sendable, modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectionBy: sectionBy,
            modelContext: modelContext)
    }

    /// An observer of the models that match `filterBy`, in sections by `sectionBy`, through a new context of
    /// `modelContainer`.
    ///
    /// - Throws: The first fetch's error.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: any KeyPath<Element, String> & Sendable, modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            filterBy: filterBy, sortBy: sortBy, sectionBy: sectionBy,
            modelContext: ModelContext(modelContainer))
    }
}

extension ResultsObserver where SectionTitle == String? {
    /// An observer of `fetchDescriptor`'s results in sections by an optional `sectionBy` (models without a
    /// value form the section titled `nil`).
    ///
    /// - Throws: The first fetch's error.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(),
        sectionBy: any KeyPath<Element, String?> & Sendable, modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: fetchDescriptor, sectionBy: sectionBy, sectionSort: SortDescriptor(sectionBy),
            modelContext: modelContext)
    }

    /// An observer of `fetchDescriptor`'s results in sections by an optional `sectionBy`, through a new
    /// context of `modelContainer`.
    ///
    /// - Throws: The first fetch's error.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(),
        sectionBy: any KeyPath<Element, String?> & Sendable, modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: fetchDescriptor, sectionBy: sectionBy, modelContext: ModelContext(modelContainer)
        )
    }

    /// An observer of the models that match `filterBy`, in sections by an optional `sectionBy`.
    ///
    /// - Throws: The first fetch's error.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: any KeyPath<Element, String?> & Sendable, modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectionBy: sectionBy,
            modelContext: modelContext)
    }

    /// An observer of the models that match `filterBy`, in sections by an optional `sectionBy`, through a new
    /// context of `modelContainer`.
    ///
    /// - Throws: The first fetch's error.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: any KeyPath<Element, String?> & Sendable, modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            filterBy: filterBy, sortBy: sortBy, sectionBy: sectionBy,
            modelContext: ModelContext(modelContainer))
    }
}
