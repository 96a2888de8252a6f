import DataStoreCore
import DataStoreModels
import Foundation

/// Turns the token text a user pasted into a token of the store's type.
enum TokenParsing {
    /// Accepts the store's own token JSON, or a container's composite token (its component for this store).
    ///
    /// - Throws: ``UsageError`` for text that is neither, and for a composite token without this store.
    static func storeToken<Token: StoreHistoryToken>(_: Token.Type, from text: String, store: String) throws
        -> Token
    {
        let data = Data(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        do {
            return try HistoryTokenCoding.decode(Token.self, fromJSON: data)
        } catch {
            guard let composite = try? HistoryTokenCoding.decode(CompositeHistoryToken.self, fromJSON: data)
            else {
                throw UsageError("malformed token: \(error)")
            }
            guard let token = composite.storeToken(for: store, as: Token.self) else {
                throw UsageError(
                    "the composite token has no position for store '\(store)' (it names \(composite.components.keys.sorted()))"
                )
            }
            return token
        }
    }
}
