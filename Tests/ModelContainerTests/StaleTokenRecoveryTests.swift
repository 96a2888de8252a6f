import DataStoreHistory
import Foundation
import Testing

/// The seeds' advice for a stale token — catch `historyTokenExpired`, drop the token, start over — recovers
/// from every kind of stale token, and the precise reason stays available.
@Suite struct StaleTokenRecoveryTests {
    /// The seeds' loop: fetch after the saved token; on `historyTokenExpired`, forget it and fetch everything.
    func unreadTitles(
        _ container: ModelContainer, after token: inout CompositeHistoryToken?,
        reasons: inout [HistoryTokenExpiry]
    ) throws -> [String] {
        let context = ModelContext(container)
        var transactions: [ContainerHistoryTransaction]
        do {
            let saved = token
            transactions = try context.fetchHistory(
                HistoryDescriptor(predicate: saved.map { saved in #Predicate { $0.token > saved } }))
        } catch let error as DataStoreError where error.code == .historyTokenExpired {
            reasons.append(try #require(error.tokenExpiry))
            token = nil
            transactions = try context.fetchHistory(HistoryDescriptor())
        }
        token = transactions.last?.token ?? token
        return transactions.flatMap(\.changes).compactMap { change in
            (context.model(for: change.changedPersistentIdentifier) as? Note)?.title
        }
    }

    @Test func expiredErasedAndRecreatedTokensAreAllRecoveredByTheSeedsCatch() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stale-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = JSONFileStoreConfiguration(name: "notes", directory: directory)
        func open() throws -> ModelContainer {
            try ModelContainer(for: [Note.self], configurations: [ModelConfiguration(configuration)])
        }
        func add(_ title: String, to container: ModelContainer) throws {
            let context = ModelContext(container)
            context.insert(Note(title: title))
            try context.save()
        }
        var token: CompositeHistoryToken?
        var reasons: [HistoryTokenExpiry] = []
        var container = try open()
        try add("a", to: container)
        try add("b", to: container)
        #expect(try unreadTitles(container, after: &token, reasons: &reasons) == ["a", "b"])

        // 1. Expired: history up to and past the token is deleted.
        try add("c", to: container)
        let context = ModelContext(container)
        let newest = try #require(try context.fetchHistory(HistoryDescriptor()).last?.token)
        try context.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.token <= newest }))
        try add("d", to: container)
        #expect(try unreadTitles(container, after: &token, reasons: &reasons) == ["d"])

        // 2. Erased: the store starts a new epoch.
        try JSONFileDataStore(configuration).erase()
        try add("e", to: container)
        #expect(try unreadTitles(container, after: &token, reasons: &reasons) == ["e"])

        // 3. Recreated: the files are removed and the store is created again.
        try FileManager.default.removeItem(at: directory)
        container = try open()
        try add("f", to: container)
        #expect(try unreadTitles(container, after: &token, reasons: &reasons) == ["f"])

        #expect(reasons.count == 3)
        #expect(reasons.first == .historyDeleted)
        #expect(
            reasons.dropFirst().allSatisfy { if case .storeErasedOrRecreated = $0 { true } else { false } })
    }
}
