public import DataStoreCore

/// Trips in the sync fault test's `lists` workload.
extension SyncTrip: FaultListModel {
    /// `SyncSchemas.trips`.
    public static var faultSchema: Schema { SyncSchemas.trips }
    /// `notes`.
    public static var stampName: String { "notes" }
    /// The notes.
    public var stamp: String {
        get { notes }
        set { notes = newValue }
    }
    /// A destination named for the stamp, and `number` nights.
    public func editDetails(stamp: String, number: Int) {
        destination = "to \(stamp)"
        nights = number
    }
    /// Destination, nights and notes.
    public var details: String { "\(destination)|\(nights)|\(notes)" }
}
