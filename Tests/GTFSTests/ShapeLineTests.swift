import XCTest
@testable import GTFS

/// `ShapeLine`, which cuts a ride's piece out of its trip's shape: places by
/// `shape_dist_traveled`, calls projected in order, and the points between two places.
final class ShapeLineTests: XCTestCase {
    /// Out along 52.5000 from 13.40 to 13.42, across to 52.5002, back along it to 13.40.
    private let outAndBack = ShapeLine([(52.5000, 13.40), (52.5000, 13.42), (52.5002, 13.42), (52.5002, 13.40)].enumerated().map {
        Shape.Point(latitude: $1.0, longitude: $1.1, sequence: $0 + 1, distanceTraveled: nil)
    })!

    private func stair(distances: [Double?]) -> ShapeLine {
        ShapeLine([(52.50, 13.40), (52.50, 13.41), (52.51, 13.41), (52.51, 13.42)].enumerated().map {
            Shape.Point(latitude: $1.0, longitude: $1.1, sequence: $0 + 1, distanceTraveled: distances[$0])
        })!
    }

    func testALineNeedsTwoPoints() {
        XCTAssertNil(ShapeLine([Shape.Point(latitude: 52.5, longitude: 13.4, sequence: 1, distanceTraveled: 0)]))
        XCTAssertNil(ShapeLine([]))
    }

    func testDistancesAreInterpolatedOnTheirSegmentAndClampedAtTheEnds() throws {
        let line = stair(distances: [0, 1000, 2000, 3000])
        XCTAssertEqual(line.place(atDistance: 1500), ShapeLine.Place(segment: 1, fraction: 0.5))
        let middle = line.coordinate(at: try XCTUnwrap(line.place(atDistance: 2250)))
        XCTAssertEqual(middle.latitude, 52.51, accuracy: 1e-12)
        XCTAssertEqual(middle.longitude, 13.4125, accuracy: 1e-12)
        XCTAssertEqual(line.place(atDistance: -5), ShapeLine.Place(segment: 0, fraction: 0))
        XCTAssertEqual(line.place(atDistance: 3000.4), ShapeLine.Place(segment: 2, fraction: 1))
        // A point without a distance, or distances that go back, leave the line without them.
        XCTAssertNil(stair(distances: [0, 1000, nil, 3000]).place(atDistance: 1500))
        XCTAssertNil(stair(distances: [0, 1000, 900, 3000]).place(atDistance: 1500))
    }

    func testAPieceRunsFromPlaceToPlaceThroughThePointsBetween() {
        let line = stair(distances: [nil, nil, nil, nil])
        let piece = line.piece(from: .init(segment: 0, fraction: 0.25), to: .init(segment: 2, fraction: 0.5))
        XCTAssertEqual(piece.map(\.latitude), [52.50, 52.50, 52.51, 52.51])
        XCTAssertEqual(piece.map(\.longitude), [13.4025, 13.41, 13.41, 13.415])
        // A place at a point does not repeat it.
        let corner = line.piece(from: .init(segment: 0, fraction: 1), to: .init(segment: 2, fraction: 0))
        XCTAssertEqual(corner.map(\.latitude), [52.50, 52.51])
        XCTAssertEqual(corner.map(\.longitude), [13.41, 13.41])
    }

    func testCallsAreProjectedInTheOrderTheTripMakesThem() {
        // The second call stands nearer the way back (5.6 m) than the way out (16.7 m), but the
        // calls after it are on the way out: it is placed there, not where it is nearest.
        let calls = [(52.4999, 13.401), (52.50015, 13.405), (52.4999, 13.41), (52.5001, 13.4205), (52.5003, 13.405)]
        let projections = outAndBack.project(calls.map { (latitude: $0.0, longitude: $0.1) })
        XCTAssertEqual(projections.map(\.place.segment), [0, 0, 0, 1, 2])
        let metresPerDegree = Geo.earthRadius * .pi / 180
        XCTAssertEqual(projections[1].metres, 0.00015 * metresPerDegree, accuracy: 0.01)
        XCTAssertEqual(projections[1].place.fraction, 0.25, accuracy: 1e-9)
        XCTAssertEqual(projections[4].place.fraction, 0.75, accuracy: 1e-9, "13.405 is three quarters of the way back")
        XCTAssertEqual(projections[4].metres, 0.0001 * metresPerDegree, accuracy: 0.01)
        // Places never go back along the line.
        XCTAssertEqual(projections.map(\.place), projections.map(\.place).sorted())
    }

    func testACallAtALoopsStartAndEndTakesTheStartFirstAndTheEndLast() {
        // A closed loop: the same stop is the first and the last call.
        let loop = ShapeLine([(52.50, 13.40), (52.50, 13.41), (52.51, 13.41), (52.50, 13.40)].enumerated().map {
            Shape.Point(latitude: $1.0, longitude: $1.1, sequence: $0 + 1, distanceTraveled: nil)
        })!
        let projections = loop.project([(52.4999, 13.4), (52.505, 13.4101), (52.4999, 13.4)])
        XCTAssertEqual(projections.first?.place, ShapeLine.Place(segment: 0, fraction: 0))
        XCTAssertEqual(projections.last?.place.segment, 2)
        XCTAssertEqual(projections.last?.place.fraction ?? 0, 1, accuracy: 1e-9)
    }
}
