#if PostgreSQL
    import DataStoreCore
    @testable import PostgresStorage
    import Testing

    /// The `row_key` and `unique_key` columns spell several parts as one: each length-prefixed (in UTF-8 bytes),
    /// so no two tuples spell the same key. Stored keys are compared with keys spelled later, so the spelling
    /// must not change between releases. Needs no server.
    struct StoreTablesKeyTests {
        @Test func partsAreSpelledLengthPrefixedInUTF8Bytes() {
            #expect(StoreTables.key("trips", "Trip", "k1") == "5:trips4:Trip2:k1")
            #expect(StoreTables.key("", "é", "a:b") == "0:2:é3:a:b")
            #expect(StoreTables.key() == "")
            let long = String(repeating: "x", count: 1_234)
            #expect(StoreTables.key(long, "0123456789") == "1234:" + long + "10:0123456789")
        }

        @Test func differentTuplesNeverSpellTheSameKey() {
            #expect(StoreTables.key("ab", "c") != StoreTables.key("a", "bc"))
            #expect(StoreTables.key("1:a", "") != StoreTables.key("1", "a"))
        }

        @Test func aRowKeyNamesTheStoreEntityAndPrimaryKey() {
            let id = PersistentIdentifier(storeIdentifier: "trips", entityName: "Trip", primaryKey: "x")
            #expect(StoreTables.rowKey(id, store: "trips") == "5:trips4:Trip1:x")
        }
    }
#endif
