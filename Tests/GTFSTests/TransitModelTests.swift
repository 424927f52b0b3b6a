import Foundation
import XCTest
import FetchRequest
import GTFS
import TestSupport

/// The model of a feed's tables, through the typed fetch-request API.
final class TransitModelTests: XCTestCase {
    private func demo() throws -> (TransitDatabase, ObjectModel) {
        let transit = try TransitDatabase(path: try DemoDatabase.path())
        let feed = try XCTUnwrap(transit.feeds.first)
        return (transit, TransitModel.model(for: feed))
    }

    func testFormatStringFetchRequestsDecodeRecords() throws {
        let (transit, model) = try demo()
        let request = try FetchRequest<Stop>(format: "stop_name BEGINSWITH[cd] %@ AND location_type == 'stop'", arguments: [.text("u gor")], in: model)
        XCTAssertEqual(try transit.database.fetch(request).map(\.stopID), ["GOR"])
        // The same request refined as any other: the platforms of HBF, by platform code, descending.
        let platforms = try FetchRequest<Stop>(format: "parent_station.stop_id == $STATION", variables: ["STATION": .text("HBF")], in: model)
            .sorted(by: [Stop.column("platform_code").descending])
        XCTAssertEqual(try transit.database.fetch(platforms).map(\.stopID), ["HBF_2", "HBF_1", "HBF_E"])
        XCTAssertThrowsError(try FetchRequest<Stop>(format: "stop_name ==", in: model)) { error in
            XCTAssertEqual((error as? PredicateFormatError)?.position, 12)
        }
    }

    func testEveryRelationshipLeadsToAnEntityAndEveryDerivedAttributeResolves() throws {
        let model = TransitModel.model(forFeedKey: 1)
        // Every table is an entity: the ones `list` names, and the realtime tables.
        XCTAssertEqual(Set(model.entities.keys), Set(TransitModel.entityNames).union(RealtimeSchema.tables.map(\.name)))
        for entity in model.entities.values {
            for relationship in entity.relationships {
                XCTAssertNotNil(model[relationship.destination], "\(entity.name).\(relationship.name)")
                if !relationship.isToMany, let identifier = relationship.identifier {
                    XCTAssertNotNil(model[relationship.destination]?.attribute(identifier), "\(entity.name).\(relationship.name) → \(identifier)")
                }
            }
            // Every attribute, and every to-one relationship as a value, compiles.
            var fetch = try XCTUnwrap(ModelFetch(entity: entity.name, in: model))
            XCTAssertNoThrow(try fetch.query(selecting: entity.attributes.map(\.name)), entity.name)
            for relationship in entity.relationships where !relationship.isToMany {
                XCTAssertNoThrow(try fetch.filter(format: "\(relationship.name) != nil"), "\(entity.name).\(relationship.name)")
            }
            for relationship in entity.relationships where relationship.isToMany {
                XCTAssertNoThrow(try fetch.filter(format: "\(relationship.name).@count >= 0"), "\(entity.name).\(relationship.name)")
            }
        }
    }

    func testEveryRealtimeEntityQueriesTheTablesRealtimeReadsCreate() throws {
        // A copy of the demo database with the realtime tables a first `transit realtime` creates.
        let directory = TemporaryDirectory()
        let path = directory.file("realtime.sqlite")
        try FileManager.default.copyItem(atPath: try DemoDatabase.path(), toPath: path)
        let writer = try Database(path: path, mode: .readWrite)
        for table in RealtimeSchema.tables { try writer.execute(table.sqlIfNotExists) }
        let transit = try TransitDatabase(path: path)
        let model = TransitModel.model(for: try XCTUnwrap(transit.feeds.first))
        for table in RealtimeSchema.tables {
            let entity = try XCTUnwrap(model[table.name], table.name)
            var fetch = try XCTUnwrap(ModelFetch(entity: table.name, in: model))
            for relationship in entity.relationships {
                try fetch.filter(format: relationship.isToMany ? "\(relationship.name).@count >= 0" : "\(relationship.name) == nil OR \(relationship.name) != nil")
            }
            let query = try fetch.query(selecting: entity.attributes.map(\.name)).query
            XCTAssertEqual(try transit.database.count(query), 0, table.name)
        }
    }

    func testEveryEntityAndToManyRelationshipQueriesTheDemoDatabase() throws {
        let (transit, model) = try demo()
        for name in TransitModel.entityNames {
            var fetch = try XCTUnwrap(ModelFetch(entity: name, in: model))
            let entity = try XCTUnwrap(model[name])
            for relationship in entity.relationships where relationship.isToMany {
                try fetch.filter(format: "\(relationship.name).@count >= 0")
            }
            let query = try fetch.query(selecting: entity.attributes.map(\.name)).query
            XCTAssertNoThrow(try transit.database.count(query), name)
        }
    }
}

/// Typed predicates: keys the compiler checks, compiled as the same predicate as their format.
final class TypedPredicateTests: XCTestCase {
    private func demo() throws -> (TransitDatabase, ObjectModel) {
        let transit = try TransitDatabase(path: try DemoDatabase.path())
        return (transit, TransitModel.model(for: try XCTUnwrap(transit.feeds.first)))
    }

    /// The trip_id of each trip key, to read answers.
    private func tripIDs(_ transit: TransitDatabase) throws -> [Int: String] {
        Dictionary(uniqueKeysWithValues: try transit.database.fetch(FetchRequest<Trip>()).map { ($0.key, $0.tripID) })
    }

    func testTypedKeysFollowRelationshipsAsTheFormatDoes() throws {
        let (transit, model) = try demo()
        let predicate = StopTime.keys.trip.route.shortName == "1" && StopTime.keys.stopSequence == 1
        XCTAssertEqual(predicate.format, "trip.route.route_short_name == '1' AND stop_sequence == 1")
        let typed = try transit.database.fetch(FetchRequest<StopTime>(where: predicate, in: model))
        let formatted = try transit.database.fetch(FetchRequest<StopTime>(format: predicate.format, in: model))
        XCTAssertEqual(typed, formatted)
        let ids = try tripIDs(transit)
        // Route R1 ("1") runs T1, T2, T4 and T6 (trips.txt).
        XCTAssertEqual(typed.map { ids[$0.tripKey]! }, ["T1", "T2", "T4", "T6"])
        XCTAssertEqual(Set(typed.map(\.stopSequence)), [1])
    }

    func testTypedCountsStringOptionsAndLogic() throws {
        let (transit, model) = try demo()
        let ids = try tripIDs(transit)
        let noPickup = Trip.keys.stopTimes.count(where: { $0.pickupType == 1 }) > 0
        XCTAssertEqual(noPickup.format, "SUBQUERY(stop_times, $x, $x.pickup_type == 1).@count > 0")
        XCTAssertEqual(try transit.database.fetch(FetchRequest<Trip>(where: noPickup, in: model)).map(\.tripID), ["T2"])
        let long = Trip.keys.stopTimes.count() >= 4 && !(Trip.keys.headsign == "Tierpark")
        XCTAssertEqual(try transit.database.fetch(FetchRequest<Trip>(where: long, in: model)).map(\.tripID), ["T2"])
        let named = Stop.keys.name.beginsWith("u gor", options: [.caseInsensitive, .diacriticInsensitive])
            || Stop.keys.parentStation.stopID.isIn(["HBF"]) && Stop.keys.platformCode == "2"
        XCTAssertEqual(try transit.database.fetch(FetchRequest<Stop>(where: named, in: model)).map(\.stopID), ["HBF_2", "GOR"])
        XCTAssertEqual(ids.count, 7)
    }

    func testPrefetchingARelationshipIsOneMoreQueryNotOnePerRecord() throws {
        let (transit, model) = try demo()
        var statements = 0
        transit.database.observer = { _ in statements += 1 }
        let request = try FetchRequest<Trip>(where: Trip.keys.directionID == 0, in: model)
        let trips = try transit.database.fetch(request)
        let routes = try transit.database.fetchRelated(Trip.route, of: request)
        XCTAssertEqual(statements, 2)
        XCTAssertEqual(trips.map { routes[.integer(Int64($0.routeKey))]?.first?.routeID }, ["R1", "N2", "R1", "RING", "R1", "N2"])
    }
}
