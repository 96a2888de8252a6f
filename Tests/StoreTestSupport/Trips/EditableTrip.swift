public import Foundation

/// A trip model whose list ``TripEditor`` edits, with the attributes the app and widget change and the batch
/// delete of a trip's items.
public protocol EditableTrip: ListOwningModel {
    /// Sets the trip's destination.
    func setDestination(_ destination: String)
    /// Sets the trip's last day.
    func setEndDate(_ date: Date)
    /// The items whose trip is named `name`, for a batch delete.
    static func items(ofTripNamed name: String) -> Predicate<Item>
}
