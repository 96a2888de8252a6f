/// The tool's commands, their options and their help.
enum ToolCommand: String, CaseIterable {
    case info, schema, history, tail, verify, repair, compact

    var flags: Set<String> {
        switch self {
        case .history: ["json", "jsonl", "values"]
        case .compact: ["wait"]
        default: []
        }
    }

    var options: Set<String> {
        switch self {
        case .info: ["store", "database-schema"]
        case .history: ["after", "after-file", "author", "since", "limit", "store", "database-schema"]
        case .tail: ["after", "after-file", "store", "database-schema"]
        case .compact: ["history-before"]
        default: []
        }
    }

    var synopsis: String {
        switch self {
        case .info: "datastore info PATH | CONNECTION [--store NAME] [--database-schema NAME]"
        case .schema: "datastore schema PATH"
        case .history:
            "datastore history PATH | CONNECTION [--store NAME] [--after TOKEN | --after-file FILE] [--author NAME] [--since DATE] [--limit N] [--values] [--json | --jsonl]"
        case .tail: "datastore tail PATH | CONNECTION [--store NAME] [--after TOKEN | --after-file FILE]"
        case .verify: "datastore verify PATH"
        case .repair: "datastore repair PATH"
        case .compact: "datastore compact PATH [--history-before TOKEN] [--wait]"
        }
    }

    var help: String {
        switch self {
        case .info:
            """
            \(synopsis)

            Prints the backend (detected from the files), format version, store identifier, epoch, models per
            entity, the schema version and entities it records, history transactions, the oldest usable token
            (older ones are expired), the newest token, and the size on disk. Never writes.
            """
        case .schema:
            """
            \(synopsis)

            Prints the schema the store records: its version, and for each entity its attributes with their value
            kinds, options and defaults, and its unique constraints. Never writes.
            """
        case .history:
            """
            \(synopsis)

            Prints transactions with their changes: time, author, process, kind, entity, identifier, updated
            attributes and tombstone values.

              --after TOKEN      only transactions after TOKEN: a token's JSON, as your app saved it (a store
                                 token or a container's composite token)
              --after-file FILE  the same, with the token read from FILE
              --author NAME      only transactions by this author
              --since DATE       only transactions committed at or after DATE (ISO 8601, e.g. 2026-11-20T09:00:00Z)
              --limit N          at most N transactions
              --values           an audit: each update's attributes as old → new (the old value where the
                                 attribute is marked .preservePreviousValue, else ?), each insert's values
                                 and each delete's last values; with --json/--jsonl, adds `values` and
                                 `previousValues` to each change
              --json             one JSON document
              --jsonl            one JSON object per transaction, per line
            """
        case .tail:
            """
            \(synopsis)

            Follows the store live and prints each new transaction as any process commits it, until Ctrl-C
            (then it exits 0 and releases everything it opened). Starts after TOKEN, or at the newest
            transaction.
            """
        case .verify:
            """
            \(synopsis)

            Checks every record's framing and checksum, the index or snapshot, that each closed segment holds
            what the index lists, and that history has no hole after the oldest valid sequence. Exits 0 with a
            one-line summary if the store is sound; otherwise exits 1 and reports the first problem with its
            file and byte offset. Never writes.
            """
        case .repair:
            """
            \(synopsis)

            For a store whose journal (or time-series active segment) is damaged: cuts the file back to its
            last good record, after copying every byte from the first damaged record on into a side file
            (FILE.damaged-TIME) beside it. The transactions in those bytes leave the store; the side file keeps
            them as evidence. Does nothing, and says so, when every record is whole. A damaged snapshot, index
            or closed segment cannot be cut back: restore it from a backup.
            """
        case .compact:
            """
            \(synopsis)

            Reclaims space, crash-safely (temporary file, fsync, rename). With --history-before TOKEN, first
            deletes the history before TOKEN. Refuses while another process holds the write lock, unless
            --wait is given.
            """
        }
    }

    static var overview: String {
        """
        datastore: inspect, verify, tail and compact DataStoreHistory stores on disk.

        usage:
        \(allCases.map { "  " + $0.synopsis }.joined(separator: "\n"))

        PATH is a store directory (a JSON file store or a time-series store; the kind is detected).
        info, history and tail also take a PostgreSQL CONNECTION string (postgresql://user@host/database) when
        datastore is built with the PostgreSQL trait: --store NAME picks the store (needed when the database
        schema holds several), --database-schema NAME the schema its tables are in (default: datastore).
        Run 'datastore COMMAND --help' for a command's options.
        """
    }
}
