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
        XCTAssertEqual(Set(model.entities.keys), Set(TransitModel.entityNames))
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
