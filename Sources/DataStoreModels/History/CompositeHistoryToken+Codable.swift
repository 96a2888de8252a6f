import DataStoreCore
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

    /// Encodes one string, `"v2:composite:people:EPOCH:7:trips:EPOCH:3"`: the stores sorted by identifier,
    /// each as store (percent-encoded), epoch and sequence, leaving out components at sequence 0 (they mean
    /// the same as no component). Equal tokens encode to equal bytes with any encoder settings.
    public func encode(to encoder: any Encoder) throws {
        var fields: [String] = []
        for (store, component) in positions.sorted(by: { $0.key < $1.key }) {
            fields += [
                HistoryTokenCoding.escape(store), component.epoch.uuidString, String(component.sequence),
            ]
        }
        var container = encoder.singleValueContainer()
        try container.encode(HistoryTokenCoding.canonical(kind: Self.kind, fields))
    }

    /// Decodes the string form above, or the version-1 object
    /// `{"v":1,"kind":"composite","stores":[{"store":"trips","epoch":"…","seq":3}, …]}`. A wrong version or
    /// kind, a store listed twice, an empty store name or a negative sequence throws
    /// `DataStoreError/malformedHistoryToken(reason:)`.
    public init(from decoder: any Decoder) throws {
        if let string = try? decoder.singleValueContainer().decode(String.self) {
            let fields = try HistoryTokenCoding.fields(of: string, kind: Self.kind)
            guard fields.count.isMultiple(of: 3) else {
                throw DataStoreError.malformedHistoryToken(
                    reason: "a composite token lists store, epoch, sequence")
            }
            var components: [String: Component] = [:]
            for start in stride(from: 0, to: fields.count, by: 3) {
                let part = try HistoryTokenCoding.parts(of: Array(fields[start..<(start + 3)]))
                guard
                    components.updateValue(
                        Component(epoch: part.epoch, sequence: part.sequence), forKey: part.store)
                        == nil
                else {
                    throw DataStoreError.malformedHistoryToken(reason: "store '\(part.store)' appears twice")
                }
            }
            self.init(components: components)
            return
        }
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
