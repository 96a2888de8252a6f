import Foundation

extension CompositeHistoryToken {
    private enum Key: String, CodingKey {
        case stores
    }

    private enum ComponentKey: String, CodingKey {
        case store, epoch
        case sequence = "seq"
    }

    /// The kind written in the Codable form.
    static let kind = "composite"

    /// Encodes `{"v":1,"kind":"composite","stores":[{"store":"trips","epoch":"…","seq":3}, …]}`, the stores
    /// sorted by identifier so equal tokens encode to equal bytes.
    public func encode(to encoder: any Encoder) throws {
        try HistoryTokenCoding.encodeHeader(kind: Self.kind, to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        var stores = container.nestedUnkeyedContainer(forKey: .stores)
        for (store, component) in components.sorted(by: { $0.key < $1.key }) {
            var entry = stores.nestedContainer(keyedBy: ComponentKey.self)
            try entry.encode(store, forKey: .store)
            try entry.encode(component.epoch, forKey: .epoch)
            try entry.encode(component.sequence, forKey: .sequence)
        }
    }

    /// Decodes the form above. A wrong version or kind, a store listed twice, an empty store name or a
    /// negative sequence throws ``DataStoreError/malformedHistoryToken(reason:)``.
    public init(from decoder: any Decoder) throws {
        do {
            try HistoryTokenCoding.decodeHeader(expectingKind: Self.kind, from: decoder)
            let container = try decoder.container(keyedBy: Key.self)
            var stores = try container.nestedUnkeyedContainer(forKey: .stores)
            var components: [String: Component] = [:]
            while !stores.isAtEnd {
                let entry = try stores.nestedContainer(keyedBy: ComponentKey.self)
                let store = try entry.decode(String.self, forKey: .store)
                let epoch = try entry.decode(UUID.self, forKey: .epoch)
                let sequence = try entry.decode(Int64.self, forKey: .sequence)
                guard !store.isEmpty else {
                    throw DataStoreError.malformedHistoryToken(reason: "empty store identifier")
                }
                guard sequence >= 0 else {
                    throw DataStoreError.malformedHistoryToken(
                        reason: "negative sequence \(sequence) for store '\(store)'")
                }
                guard
                    components.updateValue(Component(epoch: epoch, sequence: sequence), forKey: store) == nil
                else {
                    throw DataStoreError.malformedHistoryToken(reason: "store '\(store)' appears twice")
                }
            }
            self.init(components: components)
        } catch let error as DataStoreError {
            throw error
        } catch {
            throw DataStoreError.malformedHistoryToken(reason: String(describing: error))
        }
    }
}
