import DataStoreCore
import Foundation
import InMemoryStorage
import Testing

@testable import DataStoreSync

/// A push's count of what the device transactions not yet sent write: after any sequence of transactions added
/// and taken off, it says what a plain tally of (model, attribute) pairs says.
@Suite struct PendingWritesTests {
    static let models = (0..<4).map {
        PersistentIdentifier(storeIdentifier: "device", entityName: "Note", primaryKey: "n\($0)")
    }
    static let names = ["body", "rank", "title"]

    /// A change of a random kind to a random model, writing random attributes.
    static func change(_ number: Int, using generator: inout some RandomNumberGenerator)
        -> InMemoryHistoryChange
    {
        let model = models.randomElement(using: &generator)!
        let written = names.filter { _ in Bool.random(using: &generator) }
        let values = Dictionary(
            uniqueKeysWithValues: written.map { ($0, SnapshotValue.integer(Int64(number))) })
        switch Int.random(in: 0..<3, using: &generator) {
        case 0:
            return InMemoryHistoryChange(
                changedPersistentIdentifier: model, changeIdentifier: Int64(number), transactionIdentifier: 1,
                kind: .insert, values: values)
        case 1:
            return InMemoryHistoryChange(
                changedPersistentIdentifier: model, changeIdentifier: Int64(number), transactionIdentifier: 1,
                kind: .update, updatedAttributes: written.sorted(), values: values)
        default:
            return InMemoryHistoryChange(
                changedPersistentIdentifier: model, changeIdentifier: Int64(number), transactionIdentifier: 1,
                kind: .delete)
        }
    }

    static func transaction(_ changes: [InMemoryHistoryChange], _ sequence: Int64)
        -> InMemoryHistoryTransaction
    {
        InMemoryHistoryTransaction(
            timestamp: Date(), changes: changes,
            token: InMemoryHistoryToken(storeIdentifier: "device", epoch: UUID(), sequence: sequence),
            author: nil, bundleIdentifier: "tests", processIdentifier: "1")
    }

    @Test func theCountsAreATallyOfWhatIsStillToSend() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var pending = PendingWrites()
            var tally: [PersistentIdentifier: [String: Int]] = [:]
            var sent: [[InMemoryHistoryChange]] = []
            func count(_ changes: [InMemoryHistoryChange], by step: Int) {
                for change in changes {
                    let written: [String] =
                        switch change.kind {
                        case .insert: Array(change.values.keys)
                        case .update: change.updatedAttributes
                        case .delete: []
                        }
                    for name in written {
                        tally[change.changedPersistentIdentifier, default: [:]][name, default: 0] += step
                    }
                }
            }
            for step in 0..<12 {
                if !sent.isEmpty, Bool.random(using: &generator) {
                    // Taken off in the order they were added, as a push sends them; sometimes twice as many
                    // as were added (a count below zero must stay as it is).
                    let changes = sent.removeFirst()
                    pending.remove(changes)
                    count(changes, by: -1)
                } else {
                    let changes = (0..<Int.random(in: 1...3, using: &generator)).map {
                        Self.change(step * 10 + $0, using: &generator)
                    }
                    pending.add([Self.transaction(changes, Int64(step))])
                    count(changes, by: 1)
                    sent.append(changes)
                    if Int.random(in: 0..<8, using: &generator) == 0 { sent.append(changes) }
                }
                for model in Self.models {
                    for name in Self.names {
                        #expect(
                            pending.writes(name, of: model) == ((tally[model]?[name] ?? 0) > 0),
                            "\(model) \(name) after step \(step)")
                    }
                }
                let corrections = Dictionary(
                    uniqueKeysWithValues: Self.models.map { model in
                        (model, Dictionary(uniqueKeysWithValues: Self.names.map { ($0, SnapshotValue.null) }))
                    })
                let kept = pending.withoutWrittenAttributes(corrections)
                for model in Self.models {
                    let expected = Set(Self.names.filter { (tally[model]?[$0] ?? 0) <= 0 })
                    #expect(Set(kept[model]?.keys ?? [:].keys) == expected)
                }
            }
        }
    }
}
