public import DataStoreCore

/// What a ``ResultsObserver`` held at one moment: its results and, when it has a `sectionBy` key path, its
/// sections. Each element of ``ResultsObserver/updates()`` is one.
public struct ResultsSnapshot<Element: PersistentModel, SectionTitle: Hashable> {
    /// The models that matched, in order.
    public let results: [Element]
    /// The results in sections, or `nil` for an observer without a `sectionBy` key path.
    public let sections: SectionedResults<Element, SectionTitle>?
}
