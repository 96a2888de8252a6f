@_spi(DataStoreInternals) import DataStoreCore
import Foundation

extension SyncEngine {
    /// The name of the server's cursor for this device.
    var pushCursorName: String { pushAuthor }
    /// The name of the device's cursor for the server.
    static var pullCursorName: String { "pull" }
    /// The name of the device's own note of how far it has pushed: behind or at the server's cursor for it,
    /// written with the pulls, so that a device can tell what it has not pushed when the server forgot.
    static var pushedCursorName: String { "pushed" }

    /// The cursor row ``markLocalPosition()`` changes: its value means nothing, its transaction is the marker.
    static var uploadMarkName: String { "upload-mark" }

    /// How far the server has received this device's transactions: `nil` before the first push.
    ///
    /// - Throws: `DataStoreError.malformedHistoryToken` when the stored cursor does not decode, and what the
    ///   server throws.
    func pushCursor() throws -> (exists: Bool, token: Local.Token?) {
        guard let row = try serverRows.row(SyncCursor.identifier(pushCursorName, in: server.identifier))
        else {
            return (false, nil)
        }
        return (true, try Self.decode(Local.Token.self, row))
    }

    /// How far the device has applied the server's transactions: `nil` before the first pull.
    func pullCursor() throws -> (exists: Bool, token: Server.Token?) {
        guard let row = try localRows.row(SyncCursor.identifier(Self.pullCursorName, in: local.identifier))
        else {
            return (false, nil)
        }
        return (true, try Self.decode(Server.Token.self, row))
    }

    /// The device's own note of how far it has pushed (at most what the server received).
    func pushedCursor() throws -> (exists: Bool, token: Local.Token?) {
        guard let row = try localRows.row(SyncCursor.identifier(Self.pushedCursorName, in: local.identifier))
        else {
            return (false, nil)
        }
        return (true, try Self.decode(Local.Token.self, row))
    }

    /// Reads through a device transaction this engine just wrote (a pull, a correction, a full copy) when it
    /// directly follows what the engine has read: it never travels, so a push need not read it again, and a trim
    /// of the device's history through it leaves nothing unpushed behind instead of looking like lost work. A
    /// transaction an app committed in between keeps the engine where it was.
    func readThrough(ownSave token: Local.Token?) {
        guard let token else { return }
        progress.withLock {
            guard let examined = $0.examinedLocal, examined.epoch == token.epoch,
                token.sequence == examined.sequence + 1
            else { return }
            $0.examinedLocal = token
        }
    }

    /// Writes a device transaction of the engine's own (a marker cursor row, changed each time) and returns its
    /// token: for a device whose history is empty, the position an upload of the whole device reached.
    func markLocalPosition() throws -> Local.Token? {
        let id = SyncCursor.identifier(Self.uploadMarkName, in: local.identifier)
        var request = DataStoreSaveChangesRequest(editingState: EditingState(author: Self.pullAuthor))
        let marker = DataStoreSnapshot(
            persistentIdentifier: id, values: ["token": .string(UUID().uuidString)])
        if try localRows.row(id) == nil {
            request.inserted.append(marker)
        } else {
            request.updated.append(marker)
        }
        return try local.save(request).token
    }

    /// Adds the device's note of how far it has pushed to a local save, when it moved.
    func notePushed(
        in request: inout DataStoreSaveChangesRequest, noted: inout (exists: Bool, token: Local.Token?)
    )
        throws
    {
        guard let examined = progress.withLock({ $0.examinedLocal }), noted.token != examined else { return }
        try Self.write(
            cursor: Self.pushedCursorName, token: examined, exists: noted.exists, store: local.identifier,
            to: &request)
        noted = (true, examined)
    }

    /// Adds the write of cursor `name` to `request`: an insert the first time, an update after.
    static func write(
        cursor name: String, token: some StoreHistoryToken, exists: Bool, store: String,
        to request: inout DataStoreSaveChangesRequest
    ) throws {
        let id = SyncCursor.identifier(name, in: store)
        let snapshot = DataStoreSnapshot(
            persistentIdentifier: id, values: ["token": .string(try HistoryTokenCoding.jsonString(token))])
        if exists {
            request.updated.append(snapshot)
        } else {
            request.inserted.append(snapshot)
        }
    }

    private static func decode<Token: StoreHistoryToken>(_: Token.Type, _ row: DataStoreSnapshot) throws
        -> Token?
    {
        guard case .string(let text) = row[attribute: "token"], !text.isEmpty else { return nil }
        return try HistoryTokenCoding.decode(Token.self, fromJSON: Data(text.utf8))
    }

    /// The newest transaction's token, or `nil` when the store has no history.
    static func newestToken<Store: HistoryProvidingStore>(of store: Store) throws -> Store.Token? {
        var descriptor = HistoryDescriptor<Store.HistoryType>(fetchLimit: 1)
        descriptor.sortBy = [
            SortDescriptor(Store.HistoryType.keyPaths.transactionIdentifier, order: .reverse)
        ]
        return try store.fetchHistory(descriptor).first?.token
    }
}
