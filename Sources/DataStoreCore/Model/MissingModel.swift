/// What `ModelContext/model(for:)` returns for an identifier whose entity the container does not hold: a
/// model with no attributes that carries the identifier.
public struct MissingModel: PersistentModel, Hashable {
    /// No attributes.
    public static var schemaAttributes: [ModelAttribute<MissingModel>] { [] }
    /// The identifier asked for.
    public var persistentModelID = PersistentIdentifier()

    /// An empty placeholder.
    public init() {}

    /// A placeholder for `persistentModelID`.
    public init(persistentModelID: PersistentIdentifier) {
        self.persistentModelID = persistentModelID
    }
}
