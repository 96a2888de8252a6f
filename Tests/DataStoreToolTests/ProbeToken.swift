import DataStoreCore
import Foundation

struct ProbeToken: StoreHistoryToken {
    var storeIdentifier: String
    var epoch: UUID
    var sequence: Int64
    init(storeIdentifier: String, epoch: UUID, sequence: Int64) {
        self.storeIdentifier = storeIdentifier
        self.epoch = epoch
        self.sequence = sequence
    }
    func encode(to encoder: any Encoder) throws {
        try HistoryTokenCoding.encode(self, kind: "probe", to: encoder)
    }
    init(from decoder: any Decoder) throws {
        self = try HistoryTokenCoding.decode(Self.self, kind: "probe", from: decoder)
    }
}
