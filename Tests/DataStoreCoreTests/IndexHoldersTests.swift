import Testing

@testable import DataStoreCore
@testable import DataStoreKit

/// The holders of one indexed value behave as a set, whether kept inline (one) or in a set (several).
@Suite struct IndexHoldersTests {
    @Test func behavesAsASetThroughEveryTransition() {
        var random = SystemRandomNumberGenerator()
        let ids = (0..<6).map {
            PersistentIdentifier(storeIdentifier: "s", entityName: "E", primaryKey: "\($0)")
        }
        var holders = IndexHolders()
        var model = Set<PersistentIdentifier>()
        for _ in 0..<2_000 {
            let id = ids.randomElement(using: &random)!
            if Bool.random(using: &random) {
                holders.insert(id)
                model.insert(id)
            } else {
                holders.remove(id)
                model.remove(id)
            }
            #expect(holders.count == model.count)
            #expect(holders.isEmpty == model.isEmpty)
            #expect(Array(holders).count == model.count)
            #expect(Set(holders) == model)
        }
        #expect(Set(IndexHolders(Set(ids))) == Set(ids))
        #expect(IndexHolders(Set()).isEmpty)
    }
}
