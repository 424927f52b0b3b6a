import Foundation
import TestSupport
import XCTest

/// A walk to or from a point (`LAT,LON`) may be longer than a walk between two rides
/// (`--max-access-walk`, 1000 m by default, beside `--max-walk`'s 500 m), and a walk from point to
/// point is the answer whenever it arrives first. On a hand-made town (Santiago): four stops
/// 300 m apart, a bus every 20 minutes each way, 3 minutes from stop to stop.
final class AccessWalkTests: XCTestCase {
    private static let town = TownFeed(name: "Santiago", latitude: -33.45, longitude: -70.66, timeZone: "America/Santiago")
    private static let folder = TemporaryDirectory()

    private func plan(_ arguments: [String]) throws -> (journeys: [[String: Any]], stderr: String) {
        let db = try DemoDatabase.path(feed: try Self.town.feed.write(to: Self.folder, as: "santiago"))
        let run = try CommandRun.transit(["plan"] + arguments + ["--format", "json", "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr)
        let answer = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return (try XCTUnwrap(answer["journeys"] as? [[String: Any]]), run.stderr)
    }

    private func legs(_ journey: [String: Any]) -> [[String: Any]] { journey["legs"] as? [[String: Any]] ?? [] }

    /// 650 m south of W2 (beyond --max-walk, within --max-access-walk): walk, then ride to E2.
    func testAPointFartherThanAWalkBetweenRidesStillReachesItsStop() throws {
        let w2 = Self.town.stops[0]
        let point = "\(w2.latitude - 650 / 111_195.0),\(w2.longitude)"
        let found = try plan([point, "E2", "--at", "2026-03-04 07:55"])
        let first = try XCTUnwrap(found.journeys.first, found.stderr)
        // The walk from the point is longer than --max-walk's 500 m (to W2, 650 m, or on to E1,
        // 884 m, for the same bus: the journey leaving latest is shown), then the bus to E2.
        let walk = try XCTUnwrap(legs(first).first)
        XCTAssertEqual(walk["mode"] as? String, "walk")
        XCTAssertTrue(walk["from_stop_id"] is NSNull)
        let metres = try XCTUnwrap(walk["metres"] as? Int)
        XCTAssertTrue((501...1000).contains(metres), "\(metres) m")
        XCTAssertEqual(legs(first).last?["to_stop_id"] as? String, "E2")
        // With the access walk held to 500 m there is no stop to start from, and the note says so.
        let held = try plan([point, "E2", "--at", "2026-03-04 07:55", "--max-access-walk", "500"])
        XCTAssertTrue(held.journeys.isEmpty)
        XCTAssertTrue(held.stderr.contains("\"note\": \"no_stop_within_walk\"") && held.stderr.contains("\"max_access_walk_m\": 500"), held.stderr)
    }

    /// W2 to E1 is 600 m: at 08:01 the bus just left (the next arrives at E1 at 08:26), so the
    /// answer is the walk alone, 600 m in 7 min 32 s; at 08:00 the bus (at E1 08:06) is kept
    /// beside it, earlier with one ride more.
    func testAWalkFromPointToPointIsTheAnswerWhenItArrivesFirst() throws {
        let (w2, e1) = (Self.town.stops[0], Self.town.stops[2])
        let walkOnly = try plan([w2.point, e1.point, "--at", "2026-03-04 08:01"]).journeys
        XCTAssertEqual(walkOnly.count, 1)
        XCTAssertEqual(walkOnly.first.map(legs)?.map { $0["mode"] as? String }, ["walk"])
        XCTAssertEqual(Double(try XCTUnwrap(walkOnly.first.map(legs)?.first?["metres"] as? Int)), 600, accuracy: 2)
        let both = try plan([w2.point, e1.point, "--at", "2026-03-04 08:00"]).journeys
        XCTAssertEqual(both.map { $0["rides"] as? Int }, [0, 1])
    }
}
