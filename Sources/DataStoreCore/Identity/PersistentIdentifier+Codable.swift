extension PersistentIdentifier {
    enum CodingKeys: String, CodingKey {
        case storeIdentifier = "store"
        case entityName = "entity"
        case primaryKey = "key"
    }
}
