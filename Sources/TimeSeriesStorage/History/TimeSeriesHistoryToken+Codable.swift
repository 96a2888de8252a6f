import DataStoreCore

extension TimeSeriesHistoryToken {
    /// The backend kind written into the token's JSON.
    static let kind = "timeseries"

    /// Encodes the shared token form (see `HistoryTokenCoding`) with kind `timeseries`.
    public func encode(to encoder: any Encoder) throws {
        try HistoryTokenCoding.encode(self, kind: Self.kind, to: encoder)
    }

    /// Decodes the shared token form; anything else throws `DataStoreError.malformedHistoryToken`.
    public init(from decoder: any Decoder) throws {
        self = try HistoryTokenCoding.decode(Self.self, kind: Self.kind, from: decoder)
    }
}
