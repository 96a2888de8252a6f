import DataStoreCore

/// Unique values a device's pull meets ahead of the server history it is reading, and the device models that
/// hold them.
///
/// A device pushes its own models before it has pulled everything older in server order. Its pull then reads,
/// say, another device's insert of a tag of a name that was deleted before the device pushed its own tag of
/// that name; in the page that reads the insert but not yet the delete, the store's upsert would turn the
/// insert into an update of the device's tag, and the pull's save refuses. Every later pull would read the same
/// page, so the device could never pull again. Instead the pages write the models holding those values (the
/// device's and the page's) as the server holds them now: a model the server no longer holds is left out, with
/// the links to it, and later pages apply the history in between again, which ends where the server is.
struct UniqueValuesAhead {
    /// The device models whose unique values a page met.
    private(set) var holders: Set<PersistentIdentifier> = []
    /// Their unique values (``UniqueKeys``).
    private(set) var keys: Set<[SnapshotValue]> = []

    /// Records that the device's `model`, which the server holds, holds `keys`; `false` when it was recorded
    /// already, so that a page which refuses again for another reason is not applied again for nothing.
    mutating func note(_ model: PersistentIdentifier, holding keys: [[SnapshotValue]]) -> Bool {
        guard holders.insert(model).inserted else { return false }
        self.keys.formUnion(keys)
        return true
    }

    /// Whether a row holds one of the values.
    func isHeld(by row: DataStoreSnapshot, in entity: Schema.Entity) -> Bool {
        !keys.isEmpty && UniqueKeys.of(row.values, in: entity).contains(where: keys.contains)
    }
}
