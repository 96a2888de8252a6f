public import DataStoreCore

/// One section of a ``ResultsObserver``'s results: the models that share a value of its `sectionBy` key
/// path, in the results' order. As SwiftData's `ResultsSection`.
public struct ResultsSection<Element: PersistentModel, SectionTitle: Hashable>: RandomAccessCollection,
    Identifiable
{
    /// The value every model of the section has at the `sectionBy` key path.
    public let title: SectionTitle
    /// The section's models, in the results' order.
    public let elements: [Element]

    /// The section's identity: its title.
    public var id: SectionTitle { title }
    /// The position of the first model.
    public var startIndex: Int { elements.startIndex }
    /// The position after the last model.
    public var endIndex: Int { elements.endIndex }
    /// The model at `position`.
    public subscript(position: Int) -> Element { elements[position] }
}
