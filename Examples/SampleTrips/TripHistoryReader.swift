import DataStoreCore
public import DataStoreModels
public import Foundation

/// The seeds' three functions from "Track model changes with SwiftData history", ported with type names
/// changed only (`DefaultHistoryTransaction` → `ContainerHistoryTransaction`, `DefaultHistoryToken` →
/// `CompositeHistoryToken`, `DefaultHistoryInsert` → `HistoryInsert`, …) and the token kept in a JSON file
/// in place of `UserDefaults`. `findTrips(in:)`'s predicate is the seed's line, unchanged.
public struct TripHistoryReader {
    /// The container the app and widget share.
    public let modelContainer: ModelContainer
    /// Where the last processed token is kept, as JSON.
    public let tokenFile: URL

    /// Creates a reader.
    public init(modelContainer: ModelContainer, tokenFile: URL) {
        self.modelContainer = modelContainer
        self.tokenFile = tokenFile
    }

    /// The seeds' `findTransactions(after:author:)`.
    public func findTransactions(after token: CompositeHistoryToken?, author: String)
        -> [ContainerHistoryTransaction]
    {
        var historyDescriptor = HistoryDescriptor<ContainerHistoryTransaction>()
        if let token {
            historyDescriptor.predicate = #Predicate { transaction in
                (transaction.token > token) && (transaction.author == author)
            }
        }
        var transactions: [ContainerHistoryTransaction] = []
        let taskContext = ModelContext(modelContainer)
        do {
            transactions = try taskContext.fetchHistory(historyDescriptor)
        } catch let error {
            print(error)
        }
        return transactions
    }

    /// The seeds' `findTrips(in:)`.
    public func findTrips(in transactions: [ContainerHistoryTransaction]) -> (
        Set<Trip>, CompositeHistoryToken?
    ) {
        let taskContext = ModelContext(modelContainer)
        var resultTrips: Set<Trip> = []
        for transaction in transactions {
            for change in transaction.changes {
                let modelID = change.changedPersistentIdentifier
                let fetchDescriptor = FetchDescriptor<Trip>(
                    predicate: #Predicate { trip in
                        trip.livingAccommodation?.persistentModelID == modelID
                    })
                let fetchResults = try? taskContext.fetch(fetchDescriptor)
                guard let matchedTrip = fetchResults?.first else {
                    continue
                }
                switch change {
                case .insert(_ as HistoryInsert<LivingAccommodation>):
                    resultTrips.insert(matchedTrip)
                case .update(_ as HistoryUpdate<LivingAccommodation>):
                    resultTrips.update(with: matchedTrip)
                case .delete(_ as HistoryDelete<LivingAccommodation>):
                    resultTrips.remove(matchedTrip)
                default:
                    break
                }
            }
        }
        return (resultTrips, transactions.last?.token)
    }

    /// The seeds' `findUnreadTrips()`, keeping the token in ``tokenFile``.
    public func findUnreadTrips() -> Set<Trip> {
        let tokenData = try? Data(contentsOf: tokenFile)
        var historyToken: CompositeHistoryToken? = nil
        if let tokenData {
            historyToken = try? JSONDecoder().decode(CompositeHistoryToken.self, from: tokenData)
        }
        let transactions = findTransactions(after: historyToken, author: TransactionAuthor.widget)
        let (unreadTrips, newToken) = findTrips(in: transactions)
        if let newToken {
            let newTokenData = try? JSONEncoder().encode(newToken)
            try? newTokenData?.write(to: tokenFile)
        }
        return unreadTrips
    }
}
