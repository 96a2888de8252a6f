import Synchronization

/// The default entity names, computed once per type: `String(describing:)` of a type costs about a microsecond,
/// and relationship loading asks for entity names once per model.
enum EntityNames {
    private static let names = Lock<[ObjectIdentifier: String]>([:])

    /// The name of `type`, such as `"Trip"`.
    static func name(of type: Any.Type) -> String {
        let key = ObjectIdentifier(type)
        if let known = names.withLock({ $0[key] }) { return known }
        let name = String(describing: type)
        names.withLock { $0[key] = name }
        return name
    }
}
