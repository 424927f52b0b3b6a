import XCTest
import Foundation
import TestSupport

/// The planner's stop index is read in pieces as a search reaches them: blocks of stops
/// (`StopBlock`) and tiles of the map (`StopTile`), which walks are measured over. These tests
/// hold what `reach` finds with no ride against the boarding points within the walk, worked out
/// in Python from each feed's own stops.txt: from a point (the access walk) and from a stop (one
/// walk between rides), on feeds on either side of Greenwich and of the equator; and they pin that
/// a database written before the blocks (the whole index in one row) answers alike.
final class StopIndexTests: XCTestCase {
    /// The feeds, with a time each runs.
    private static let feeds: [(name: String, at: String)] = [
        ("vilnius.zip", "2015-09-15 08:00"), ("cairns_gtfs.zip", "2014-07-15 08:00"), ("sample_gtfs.zip", "2008-01-02 08:00"),
    ]

    /// Seeded places of `feed` and, for each walk length, the boarding points within it, from
    /// stops.txt: (kind, place, metres, stop ids), kind "point" (an access walk from a position
    /// near a stop) or "stop" (a walk from the stop itself, which is among those it lists).
    private func expectedWalks(_ feed: String) throws -> [(kind: String, place: String, metres: Int, stops: Set<String>)] {
        let python = try CommandRun.run("/usr/bin/env", ["python3", "-c", """
            import csv, io, math, os, random, sys, zipfile
            path = sys.argv[1]
            def read(name):
                if os.path.isdir(path): return open(os.path.join(path, name), encoding='utf-8-sig').read()
                return zipfile.ZipFile(path).read(name).decode('utf-8-sig')
            stops = [s for s in csv.DictReader(io.StringIO(read('stops.txt')))
                     if (s.get('location_type') or '0') == '0' and s.get('stop_lat') and s.get('stop_lon')]
            def distance(lat1, lon1, lat2, lon2):
                p1, p2 = math.radians(lat1), math.radians(lat2)
                dp, dl = p2 - p1, math.radians(lon2 - lon1)
                a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
                return 2 * 6371008.8 * math.asin(min(1, math.sqrt(a)))
            def within(lat, lon, metres):
                return [s['stop_id'] for s in stops if distance(lat, lon, float(s['stop_lat']), float(s['stop_lon'])) <= metres]
            rnd = random.Random(41)
            for s in rnd.sample(stops, min(6, len(stops))):
                lat, lon = float(s['stop_lat']) + rnd.uniform(-0.004, 0.004), float(s['stop_lon']) + rnd.uniform(-0.004, 0.004)
                for metres in (150, 700, 2500):
                    print('point', f'{lat:.6f},{lon:.6f}', metres, ' '.join(within(lat, lon, metres)), sep='|')
            for s in rnd.sample(stops, min(6, len(stops))):
                for metres in (150, 700, 2500):
                    print('stop', s['stop_id'], metres, ' '.join(within(float(s['stop_lat']), float(s['stop_lon']), metres)), sep='|')
            """, feed])
        XCTAssertEqual(python.status, 0, python.stderr)
        return python.stdout.split(separator: "\n").map { line in
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return (fields[0], fields[1], Int(fields[2]) ?? 0, Set(fields[3].split(separator: " ").map(String.init)))
        }
    }

    /// The stop ids `reach` lists from `place` with no ride, walking at most `metres`.
    private func reachedWithNoRide(_ kind: String, _ place: String, metres: Int, at: String, db: String) throws -> Set<String> {
        let walk = kind == "point" ? "--max-access-walk" : "--max-walk"
        let run = try CommandRun.transit(["reach", place, "--at", at, "--within", "1440", "--max-rides", "0", walk, "\(metres)",
                                          "--format", "json", "--db", db])
        XCTAssertEqual(run.status, 0, "\(place): \(run.stderr)")
        let body = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let stops = try XCTUnwrap(body?["stops"] as? [[String: Any]], run.stdout)
        return Set(stops.compactMap { $0["stop_id"] as? String })
    }

    func testWalksReachExactlyTheBoardingPointsWithinThemOnFeedsEitherSideOfGreenwichAndTheEquator() throws {
        var feeds = [(Paths.demoFeed, "2026-03-02 08:00")]
        for (name, at) in Self.feeds {
            guard let feed = Paths.sharedFeed(name) else {
                if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("../shared/feeds/\(name) is absent under CI=true") }
                print("StopIndexTests: ../shared/feeds/\(name) is absent: skipped")
                continue
            }
            feeds.append((feed, at))
        }
        for (feed, at) in feeds {
            let db = try DemoDatabase.path(feed: feed)
            let expected = try expectedWalks(feed)
            XCTAssertEqual(expected.count, 36, feed)
            XCTAssertTrue(expected.contains { $0.stops.count > 2 }, "\(feed): some walk reaches several stops")
            for walk in expected {
                XCTAssertEqual(try reachedWithNoRide(walk.kind, walk.place, metres: walk.metres, at: at, db: db), walk.stops,
                               "\(feed): \(walk.kind) \(walk.place) within \(walk.metres) m")
            }
        }
    }

    /// Plans and reaches on the demo and Vilnius feeds, as JSON, from a database written now and
    /// from the same database with its stop index rewritten in the first form
    /// (`Tests/Reference/first_form_stop_index.py`): the same answers.
    func testADatabaseWrittenBeforeTheBlocksAnswersAlike() throws {
        var feeds = [(Paths.demoFeed, ["HBF", "STR"], "2026-03-02 07:55", "2026-03-02 09:00")]
        if let vilnius = Paths.sharedFeed("vilnius.zip") {
            feeds.append((vilnius, ["5245", "893"], "2015-09-15 08:00", "2015-09-15 09:00"))
        } else if ProcessInfo.processInfo.environment["CI"] == "true" {
            XCTFail("../shared/feeds/vilnius.zip is absent under CI=true")
        }
        let folder = TemporaryDirectory()
        for (index, (feed, stops, at, arriveBy)) in feeds.enumerated() {
            let current = folder.file("current\(index).sqlite"), first = folder.file("first\(index).sqlite")
            XCTAssertEqual(try CommandRun.transit(["import", feed, "--db", current, "--quiet"]).status, 0)
            try FileManager.default.copyItem(atPath: current, toPath: first)
            let rewrite = try CommandRun.run("/usr/bin/env", ["python3", Paths.projectRoot + "/Tests/Reference/first_form_stop_index.py", first])
            XCTAssertEqual(rewrite.status, 0, rewrite.stderr)
            let questions = [["plan", stops[0], stops[1], "--at", at], ["plan", stops[0], stops[1], "--arrive-by", arriveBy, "--max-walk", "2000"],
                             ["reach", stops[0], "--at", at, "--within", "45"]]
            for question in questions {
                let answers = try [current, first].map { db in
                    let run = try CommandRun.transit(question + ["--format", "json", "--db", db])
                    XCTAssertEqual(run.status, 0, run.stderr)
                    return run.stdout
                }
                XCTAssertGreaterThan(answers[0].count, 100, "\(question): an answer")
                XCTAssertEqual(answers[0], answers[1], "\(feed): \(question)")
            }
        }
    }
}
