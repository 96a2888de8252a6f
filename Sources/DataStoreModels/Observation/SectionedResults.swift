public import DataStoreCore

/// A ``ResultsObserver``'s results grouped into sections, in order of each section's first model. As
/// SwiftData's `SectionedResults`.
public struct SectionedResults<Element: PersistentModel, SectionTitle: Hashable>: RandomAccessCollection {
    /// The sections, in order.
    public let sections: [ResultsSection<Element, SectionTitle>]
    private let positions: [SectionTitle: Int]

    /// Groups `results` by `title`; models with one title must be adjacent for them to form one section
    /// (the observer sorts by the section key path first, so they are).
    init(_ results: [Element], title: (Element) -> SectionTitle) {
        var sections: [ResultsSection<Element, SectionTitle>] = []
        var current: (title: SectionTitle, elements: [Element])?
        for element in results {
            let elementTitle = title(element)
            if let open = current, open.title == elementTitle {
                current?.elements.append(element)
                continue
            }
            if let open = current {
                sections.append(ResultsSection(title: open.title, elements: open.elements))
            }
            current = (elementTitle, [element])
        }
        if let open = current { sections.append(ResultsSection(title: open.title, elements: open.elements)) }
        self.sections = sections
        positions = Dictionary(
            sections.enumerated().map { ($1.title, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The section titles, in order.
    public var sectionTitles: [SectionTitle] { sections.map(\.title) }
    /// The section with `title`, or `nil` if there is none. O(1).
    public subscript(sectionTitle title: SectionTitle) -> ResultsSection<Element, SectionTitle>? {
        positions[title].map { sections[$0] }
    }
    /// The position of the first section.
    public var startIndex: Int { sections.startIndex }
    /// The position after the last section.
    public var endIndex: Int { sections.endIndex }
    /// The section at `position`.
    public subscript(position: Int) -> ResultsSection<Element, SectionTitle> { sections[position] }
}
