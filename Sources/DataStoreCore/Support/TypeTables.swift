/// The tables derived once per type (``ModelWriters``, ``ModelReaders``, a generic transaction's key paths), by
/// the table's own type: a generic type has no static stored properties, so each finds its instance here.
enum TypeTables {
    private static let tables = Lock<[ObjectIdentifier: AnyObject]>([:])

    /// The table of type `Table`, made by `make` on first use.
    static func table<Table: AnyObject & Sendable>(_: Table.Type, make: () -> Table) -> Table {
        let key = ObjectIdentifier(Table.self)
        if let known = tables.withLock({ $0[key] }) { return unsafeDowncast(known, to: Table.self) }
        // Made outside the lock: making one reads the model type's attributes, which may need another table.
        let made = make()
        return tables.withLock { tables in
            if let known = tables[key] { return unsafeDowncast(known, to: Table.self) }
            tables[key] = made
            return made
        }
    }
}
