import DataStoreCore
import Foundation
import JSONFileStorage
import TimeSeriesStorage

#if PostgreSQL
    import PostgresStorage
#endif

/// `datastore compact PATH [--history-before TOKEN] [--wait]`.
enum CompactCommand {
    static func run(_ directory: URL, _ arguments: ParsedArguments, output: (String) -> Void) throws {
        let before = try InfoCommand.sizeOnDisk(directory)
        let wait = arguments.flags.contains("wait")
        // Without --wait, a lock held by another process fails the command at once.
        let timeout: Duration = wait ? .seconds(86_400) : .zero
        switch try OpenedStore.open(directory, writable: true, busyTimeout: timeout) {
        case .jsonFile(let store):
            if let text = arguments.options["history-before"] {
                let token = try TokenParsing.storeToken(
                    JSONFileHistoryToken.self, from: text, store: store.identifier)
                try store.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.token < token }))
            } else {
                try store.compact()
            }
        case .timeSeries(let store):
            if let text = arguments.options["history-before"] {
                let token = try TokenParsing.storeToken(
                    TimeSeriesHistoryToken.self, from: text, store: store.identifier)
                try store.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.token < token }))
            }
            try store.applyRetention()
        #if PostgreSQL
            case .postgres: throw UsageError("only store directories can be compacted")
        #endif
        }
        let after = try InfoCommand.sizeOnDisk(directory)
        output("compacted: \(before) bytes before, \(after) bytes after")
    }
}
