/// What a store reports after a save: the identifiers it remapped and the token of the new transaction.
public struct DataStoreSaveChangesResult<Token: StoreHistoryToken>: Sendable {
    /// The identifier of the store that saved.
    public var storeIdentifier: String
    /// Proposed identifier to the identifier the store used, for every insert the store remapped (for
    /// example an insert that became an update of the model holding the same `.unique` value).
    public var remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]
    /// The token of the transaction the save created, or `nil` when the save changed nothing.
    public var token: Token?
    /// The changes the save made beyond the request: delete rules, inverse relationships, merged lists
    /// (`SavePlan/deleteRuleChanges`). A context applies them to the models it tracks. Report them even when
    /// the save committed nothing (`token` is `nil`): a list edit another saver made already leaves the store
    /// as it was, and holding something other than what was sent.
    public var deleteRuleChanges: [PlannedChange]

    /// Creates a result.
    public init(
        storeIdentifier: String, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:],
        token: Token?, deleteRuleChanges: [PlannedChange] = []
    ) {
        self.storeIdentifier = storeIdentifier
        self.remappedIdentifiers = remappedIdentifiers
        self.token = token
        self.deleteRuleChanges = deleteRuleChanges
    }
}
