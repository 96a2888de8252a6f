public import DataStoreCore

extension ModelContext {
    /// Fetches the container's merged history; see ``ModelContainer/fetchHistory(_:)``.
    ///
    /// ```swift
    /// var descriptor = HistoryDescriptor<ContainerHistoryTransaction>()
    /// descriptor.predicate = #Predicate { $0.token > token && $0.author == "widget" }
    /// let transactions = try context.fetchHistory(descriptor)
    /// ```
    public func fetchHistory(_ descriptor: HistoryDescriptor<ContainerHistoryTransaction>) throws
        -> [ContainerHistoryTransaction]
    {
        var statistics = HistoryQueryStatistics()
        defer { lastHistoryStatistics = statistics }
        return try container.fetchHistory(descriptor, statistics: &statistics)
    }

    /// Deletes history; see ``ModelContainer/deleteHistory(_:)``.
    public func deleteHistory(_ descriptor: HistoryDescriptor<ContainerHistoryTransaction>) throws {
        try container.deleteHistory(descriptor)
    }
}
