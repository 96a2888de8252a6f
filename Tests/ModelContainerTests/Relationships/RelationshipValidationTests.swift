import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import JSONFileStorage
import SampleTrips
import Testing

/// Relationships that cannot be stored are typed errors naming the entity and relationship; nothing is saved.
@Suite struct RelationshipValidationTests {
    func isInvalidRelationship(_ error: any Error, entity: String, relationship: String) -> Bool {
        guard let error = error as? DataStoreError, error.code == .invalidRelationship else { return false }
        return error.entity == entity && error.attribute == relationship
    }

    @Test func aContainerForTripIncludesTheModelsItRelatesTo() throws {
        let container = try ModelContainer(
            for: [Trip.self], configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "trips"))])
        #expect(
            Set(container.schema.entities.map(\.name)) == ["Trip", "LivingAccommodation", "BucketListItem"])
        let trip = try #require(container.schema.entity(named: "Trip"))
        #expect(
            trip.relationship(named: "bucketList")
                == Schema.Relationship(
                    name: "bucketList", destination: "BucketListItem", isToMany: true, deleteRule: .cascade,
                    inverse: "trip"))
        // The inverse declared on Trip's side is recorded on the other side too.
        #expect(
            container.schema.entity(named: "BucketListItem")?.relationship(named: "trip")?.inverse
                == "bucketList")
    }

    @Test func relatedTypesNoConfigurationNamesGoToTheStoreOfTheirOwner() throws {
        let container = try ModelContainer(
            for: [Trip.self, Shelf.self],
            configurations: [
                ModelConfiguration(InMemoryStoreConfiguration(name: "trips"), for: [Trip.self]),
                ModelConfiguration(InMemoryStoreConfiguration(name: "shelves"), for: [Shelf.self]),
            ])
        let context = ModelContext(container)
        let stay = LivingAccommodation()
        let item = BucketListItem()
        let book = Book()
        for model in [stay, item, book] as [any PersistentModel] { context.insert(model) }
        #expect(stay.persistentModelID.storeIdentifier == "trips")
        #expect(item.persistentModelID.storeIdentifier == "trips")
        #expect(book.persistentModelID.storeIdentifier == "shelves")
        try context.save()
    }

    @Test func anInverseThatDoesNotPointBackIsRefused() {
        #expect {
            try ModelContainer(
                for: [Misfiled.self],
                configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "m"))])
        } throws: { isInvalidRelationship($0, entity: "Misfiled", relationship: "book") }
    }

    @Test func aRelationshipWithoutTheWrapperIsRefused() {
        #expect {
            try ModelContainer(
                for: [Unwrapped.self],
                configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "u"))])
        } throws: { isInvalidRelationship($0, entity: "Unwrapped", relationship: "book") }
    }

    @Test func aRelationshipAcrossStoresIsRefused() {
        #expect {
            try ModelContainer(
                for: [Trip.self],
                configurations: [
                    ModelConfiguration(
                        InMemoryStoreConfiguration(name: "trips"), for: [Trip.self, BucketListItem.self]),
                    ModelConfiguration(
                        InMemoryStoreConfiguration(name: "stays"), for: [LivingAccommodation.self]),
                ])
        } throws: { isInvalidRelationship($0, entity: "Trip", relationship: "livingAccommodation") }
    }

    @Test func aDeletedModelAssignedToARelationshipIsRefused() throws {
        let container = try ModelContainer(
            for: [Trip.self], configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "trips"))])
        let context = ModelContext(container)
        let trip = try makeTrip("Lisbon", items: 0, in: context)
        let stay = LivingAccommodation(address: "2", placeName: "Other")
        context.insert(stay)
        try context.save()
        let history = try context.fetchHistory(.init()).count
        context.delete(stay)
        trip.livingAccommodation = stay
        #expect {
            try context.save()
        } throws: { isInvalidRelationship($0, entity: "Trip", relationship: "livingAccommodation") }
        #expect(try ModelContext(container).fetchHistory(.init()).count == history)
    }

    @Test func aModelOfAnotherContainerIsRefused() throws {
        let first = try ModelContainer(
            for: [Trip.self], configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "one"))])
        let second = try ModelContainer(
            for: [Trip.self], configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "two"))])
        let foreign = ModelContext(first)
        let item = BucketListItem(title: "Elsewhere")
        foreign.insert(item)
        try foreign.save()

        let context = ModelContext(second)
        let trip = Trip(name: "Lisbon", destination: "Lisbon", startDay: 0, days: 1)
        context.insert(trip)
        trip.bucketList.append(item)
        #expect {
            try context.save()
        } throws: { isInvalidRelationship($0, entity: "Trip", relationship: "bucketList") }
        #expect(try ModelContext(second).fetchCount(FetchDescriptor<Trip>()) == 0)
    }

    @Test func aStoreRefusesASchemaWhoseRelationshipLeavesIt() throws {
        let tripsOnly = Schema(entities: [Trip.schemaEntity])
        #expect {
            try InMemoryDataStore(.init(name: "trips", schema: tripsOnly))
        } throws: { isInvalidRelationship($0, entity: "Trip", relationship: "livingAccommodation") }
        let stores = try TripStores()
        defer { stores.remove() }
        #expect {
            try JSONFileDataStore(.init(name: "trips", schema: tripsOnly, directory: stores.directory))
        } throws: { isInvalidRelationship($0, entity: "Trip", relationship: "livingAccommodation") }
        #expect(try stores.fingerprint().isEmpty)
        var pointingElsewhere = Schema([Trip.self])
        let index = try #require(pointingElsewhere.entities.firstIndex { $0.name == "BucketListItem" })
        pointingElsewhere.entities[index].relationships[0].inverse = "livingAccommodation"
        #expect {
            try InMemoryDataStore(.init(name: "trips", schema: pointingElsewhere))
        } throws: { isInvalidRelationship($0, entity: "BucketListItem", relationship: "trip") }
    }

    @Test func aStoreRefusesAReferenceToAModelItDoesNotHold() throws {
        let store = try InMemoryDataStore(.init(name: "trips", schema: Schema([Trip.self])))
        let ghost = PersistentIdentifier(
            storeIdentifier: "trips", entityName: "LivingAccommodation", primaryKey: "ghost")
        var trip = DataStoreSnapshot(
            persistentIdentifier: PersistentIdentifier(
                storeIdentifier: "trips", entityName: "Trip", primaryKey: "t"),
            values: Trip().snapshotValues)
        trip.values["livingAccommodation"] = .identifier(ghost)
        #expect {
            try store.save(DataStoreSaveChangesRequest(inserted: [trip]))
        } throws: { error in
            isInvalidRelationship(error, entity: "Trip", relationship: "livingAccommodation")
                && (error as? DataStoreError)?.identifier == ghost
        }
        #expect(store.modelCount == 0)
    }
}
