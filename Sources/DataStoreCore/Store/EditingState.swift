public import Foundation

/// Who is saving: the context's identity and author, and the program doing the save.
///
/// Stores copy these into the history transaction a save creates.
public struct EditingState: Hashable, Sendable {
    /// Identifies the model context that saves.
    public var id: UUID
    /// The context's author, such as `"widget"`, if set.
    public var author: String?
    /// The saving program's bundle identifier; on Linux the executable's name unless configured.
    public var bundleIdentifier: String
    /// The saving process's identifier.
    public var processIdentifier: String

    /// Creates an editing state. The defaults describe the current process, with a new random `id`.
    public init(
        id: UUID = RandomUUID.make(), author: String? = nil,
        bundleIdentifier: String = ProcessMetadata.current.bundleIdentifier,
        processIdentifier: String = ProcessMetadata.current.processIdentifier
    ) {
        self.id = id
        self.author = author
        self.bundleIdentifier = bundleIdentifier
        self.processIdentifier = processIdentifier
    }
}
