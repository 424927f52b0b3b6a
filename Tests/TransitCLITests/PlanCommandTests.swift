import XCTest
import Foundation
import TestSupport

/// `transit plan` and `transit reach` on small feeds written in each test, each pinning one rule
/// of the journey planner: the Pareto set over rides and arrival, changes and transfers.txt,
/// pickup and drop-off, walks, trips past midnight, frequencies, stations and points, arrive-by,
/// several feeds, nothing reachable.
///
/// The city: stops A, B, C, D, E about 1.1 km apart on a line (no walks between them at 500 m),
/// C2 150 m from C. On Mondays (2026-03-02, Europe/Berlin, +01:00): T1 A 08:00 → B 08:10 → C 08:20;
/// T2 C 08:25 → D 08:35; T3 A 08:05 → D 09:00 (slow but direct).
final class PlanCommandTests: XCTestCase {
    static let stops = """
        stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
        A,Alpha,52.50,13.40,,
        B,Bravo,52.51,13.40,,
        C,Charlie,52.52,13.40,,
        C2,Charlie Two,52.5213,13.40,,
        D,Delta,52.53,13.40,,
        E,Echo,52.54,13.40,,
        """
    static let routes = "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,1,One,3\nR2,A,2,Two,3\nR3,A,3,Three,3\nRF,A,F,Frequent,3\n"
    static let trips = "route_id,service_id,trip_id\nR1,WD,T1\nR2,WD,T2\nR3,WD,T3\n"
    static let stopTimes = """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type
        T1,08:00:00,08:00:00,A,1,,
        T1,08:10:00,08:10:00,B,2,,
        T1,08:20:00,08:20:00,C,3,,
        T2,08:25:00,08:25:00,C,1,,
        T2,08:35:00,08:35:00,D,2,,
        T3,08:05:00,08:05:00,A,1,,
        T3,09:00:00,09:00:00,D,2,,
        """

    /// The city's feed, with `changes` to its files (nil: the file left out).
    static func city(_ changes: [String: String?] = [:]) -> FeedFixture {
        var feed = FeedFixture()
            .with("stops.txt", PlanCommandTests.stops + "\n")
            .with("routes.txt", PlanCommandTests.routes)
            .with("trips.txt", PlanCommandTests.trips)
            .with("stop_times.txt", PlanCommandTests.stopTimes + "\n")
        for (name, contents) in changes { feed = feed.with(name, contents) }
        return feed
    }

    /// Imports `feed` into a new database; returns its path.
    private func database(_ feed: FeedFixture, in directory: TemporaryDirectory, name: String = "city") throws -> String {
        let path = directory.file("transit.sqlite")
        let run = try CommandRun.transit(["import", try feed.write(to: directory, as: name), "--db", path, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        return path
    }

    /// `transit plan` with `arguments`, its JSON journeys as (rides, departure, arrival, legs).
    private func plan(_ arguments: [String], db: String, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let run = try CommandRun.transit(["plan"] + arguments + ["--format", "json", "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
        return try XCTUnwrap(object["journeys"] as? [[String: Any]], run.stdout)
    }

    private func summary(_ journeys: [[String: Any]]) -> [String] {
        journeys.map { journey in
            let legs = (journey["legs"] as? [[String: Any]] ?? []).map { leg in
                leg["mode"] as? String == "ride" ? "\(leg["route_short_name"] as? String ?? "?"):\(leg["from_stop_id"] as? String ?? "-")>\(leg["to_stop_id"] as? String ?? "-")"
                                                  : "walk:\(leg["from_stop_id"] as? String ?? "point")>\(leg["to_stop_id"] as? String ?? "point")"
            }
            return "\(journey["rides"] as? Int ?? -1) \(time(journey["departure"]))-\(time(journey["arrival"])) " + legs.joined(separator: " ")
        }
    }

    /// "08:35:00" out of "2026-03-02T08:35:00+01:00".
    private func time(_ value: Any?) -> String {
        guard let text = value as? String, let t = text.firstIndex(of: "T") else { return "?" }
        return String(text[text.index(after: t)...].prefix(8))
    }

    /// A planner row cut short (a damaged file) is reported as the damaged table of its feed, with
    /// what to do, in one line: a pattern's row (read when a search first reaches it), a block of
    /// the stop index's stops and a tile of its map (read when a search first needs them), then
    /// the stop index's header (read when the planner starts).
    func testADamagedPlannerRowIsReportedAsItsFeedsDamagedTable() throws {
        for id in [1, -100_000_000, -200_000_000, 0] {
            let directory = TemporaryDirectory()
            let db = try database(PlanCommandTests.city(), in: directory)
            let damage = try CommandRun.run("/usr/bin/env", ["sqlite3", db, "UPDATE planner_1 SET data = substr(data, 1, 5) WHERE id = \(id)"])
            XCTAssertEqual(damage.status, 0, damage.stderr)
            let run = try CommandRun.transit(["plan", "A", "D", "--at", "2026-03-02 07:55", "--db", db])
            XCTAssertNotEqual(run.status, 0, "row \(id): \(run.stdout)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "row \(id): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("Error: feed city's journey planner table planner_1 is damaged (a stored row ends early): "
                                               + "import the feed again to rewrite it (transit import "), "row \(id): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasSuffix(" --feed city)\n"), "row \(id): \(run.stderr)")
        }
    }

    /// A stop index header whose sizes are out of all reason (a damaged file) is refused as the
    /// damaged table in one line, before anything is allocated for them: a stop count of four
    /// billion (it crashed, asking for 34 GB), blocks of no stops, tiles 10⁻¹⁰° wide.
    func testAStopIndexHeaderWithImpossibleSizesIsReportedAsItsFeedsDamagedTable() throws {
        // Row 0: marker, count (bytes 4…7), block size (8…11), tile height (12…19), width (20…27).
        for (offset, bytes) in [(4, "F0FFFFFF"), (8, "00000000"), (20, "BBBDD7D9DF7CDB3D")] {
            let directory = TemporaryDirectory()
            let db = try database(PlanCommandTests.city(), in: directory)
            let patch = "substr(data, 1, \(offset)) || x'\(bytes)' || substr(data, \(offset + bytes.count / 2 + 1))"
            let damage = try CommandRun.run("/usr/bin/env", ["sqlite3", db, "UPDATE planner_1 SET data = \(patch) WHERE id = 0"])
            XCTAssertEqual(damage.status, 0, damage.stderr)
            for question in [["plan", "A", "D"], ["reach", "A"]] {
                let run = try CommandRun.transit(question + ["--at", "2026-03-02 07:55", "--db", db])
                XCTAssertEqual(run.status, 1, "bytes \(offset)…: \(run.stdout)\(run.stderr)")
                XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "bytes \(offset)…: \(run.stderr)")
                XCTAssertTrue(run.stderr.hasPrefix("Error: feed city's journey planner table planner_1 is damaged"), run.stderr)
            }
        }
    }

    func testTheParetoSetKeepsAFasterJourneyWithMoreRides() throws {
        let directory = TemporaryDirectory()
        let db = try database(Self.city(), in: directory)
        let journeys = try plan(["A", "D", "--at", "2026-03-02 08:00"], db: db)
        XCTAssertEqual(summary(journeys), ["1 08:05:00-09:00:00 3:A>D", "2 08:00:00-08:35:00 1:A>C 2:C>D"])
        let first = try XCTUnwrap((journeys[1]["legs"] as? [[String: Any]])?.first)
        let ends = ["from", "to"].flatMap { end in ["stop_id", "name", "platform", "lat", "lon"].map { "\(end)_\($0)" } }
        XCTAssertEqual(Set(first.keys), Set(["mode", "feed", "trip_id", "route_id", "route_short_name", "route_long_name", "route_color",
                                             "route_text_color", "headsign", "departure", "arrival", "realtime"] + ends))
        XCTAssertEqual(first["trip_id"] as? String, "T1")
        XCTAssertEqual(first["departure"] as? String, "2026-03-02T08:00:00+01:00")
        XCTAssertEqual(first["realtime"] as? Bool, false)
        XCTAssertEqual(journeys[1]["departure"] as? String, "2026-03-02T08:00:00+01:00")
        // With one ride at most, only the direct trip.
        XCTAssertEqual(summary(try plan(["A", "D", "--at", "2026-03-02 08:00", "--max-rides", "1"], db: db)), ["1 08:05:00-09:00:00 3:A>D"])
        // Leaving after T1 left, the change is gone.
        XCTAssertEqual(summary(try plan(["A", "D", "--at", "2026-03-02 08:01"], db: db)), ["1 08:05:00-09:00:00 3:A>D"])
    }

    func testATypeThreeTransferForbidsTheChange() throws {
        let directory = TemporaryDirectory()
        let db = try database(Self.city(["transfers.txt": "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nC,C,3,\n"]), in: directory)
        XCTAssertEqual(summary(try plan(["A", "D", "--at", "2026-03-02 08:00"], db: db)), ["1 08:05:00-09:00:00 3:A>D"])
    }

    func testATypeTwoTransferSetsTheMinimumChangeTime() throws {
        let directory = TemporaryDirectory()
        let long = try database(Self.city(["transfers.txt": "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nC,C,2,360\n"]), in: directory)
        XCTAssertEqual(summary(try plan(["A", "D", "--at", "2026-03-02 08:00"], db: long)), ["1 08:05:00-09:00:00 3:A>D"], "08:20 + 6 min misses 08:25")
        let other = TemporaryDirectory()
        let short = try database(Self.city(["transfers.txt": "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nC,C,2,300\n"]), in: other)
        XCTAssertEqual(summary(try plan(["A", "D", "--at", "2026-03-02 08:00"], db: short)).last, "2 08:00:00-08:35:00 1:A>C 2:C>D",
                       "08:20 + 5 min catches 08:25 (equal allowed)")
    }

    func testPickupAndDropOffTypeOneForbidBoardingAndAlighting() throws {
        let noPickup = PlanCommandTests.stopTimes.replacingOccurrences(of: "T1,08:00:00,08:00:00,A,1,,", with: "T1,08:00:00,08:00:00,A,1,1,")
        let directory = TemporaryDirectory()
        let db = try database(Self.city(["stop_times.txt": noPickup + "\n"]), in: directory)
        XCTAssertEqual(summary(try plan(["A", "D", "--at", "2026-03-02 08:00"], db: db)), ["1 08:05:00-09:00:00 3:A>D"])
        let noDropOff = PlanCommandTests.stopTimes.replacingOccurrences(of: "T1,08:20:00,08:20:00,C,3,,", with: "T1,08:20:00,08:20:00,C,3,,1")
        let other = TemporaryDirectory()
        let db2 = try database(Self.city(["stop_times.txt": noDropOff + "\n"]), in: other)
        XCTAssertEqual(summary(try plan(["A", "D", "--at", "2026-03-02 08:00"], db: db2)), ["1 08:05:00-09:00:00 3:A>D"])
    }

    func testAWalkBetweenStopsJoinsTwoRides() throws {
        // T2 leaves from C2, 150 m (113 s) from C.
        let moved = PlanCommandTests.stopTimes.replacingOccurrences(of: "T2,08:25:00,08:25:00,C,1,,", with: "T2,08:25:00,08:25:00,C2,1,,")
        let directory = TemporaryDirectory()
        let db = try database(Self.city(["stop_times.txt": moved + "\n"]), in: directory)
        let journeys = try plan(["A", "D", "--at", "2026-03-02 08:00"], db: db)
        XCTAssertEqual(summary(journeys).last, "2 08:00:00-08:35:00 1:A>C walk:C>C2 2:C2>D")
        let walk = try XCTUnwrap((journeys.last?["legs"] as? [[String: Any]])?[1])
        let ends = ["from", "to"].flatMap { end in ["stop_id", "name", "platform", "lat", "lon"].map { "\(end)_\($0)" } }
        XCTAssertEqual(Set(walk.keys), Set(["mode", "departure", "arrival", "seconds", "metres"] + ends))
        XCTAssertEqual(walk["metres"] as? Int, 145)
        XCTAssertEqual(walk["seconds"] as? Int, 109, "⌈145 m / 1.33 m/s⌉")
        // With walks of at most 100 m, no change.
        XCTAssertEqual(summary(try plan(["A", "D", "--at", "2026-03-02 08:00", "--max-walk", "100"], db: db)), ["1 08:05:00-09:00:00 3:A>D"])
    }

    func testAWalkThatBeatsARide() throws {
        // T6 rides C2 08:30 → C 08:32; walking the 145 m takes 109 s: the walk arrives first, and
        // the ride, later with more rides, is not kept.
        let directory = TemporaryDirectory()
        let db = try database(Self.city(["trips.txt": PlanCommandTests.trips + "R2,WD,T6\n",
                                    "stop_times.txt": PlanCommandTests.stopTimes + "\nT6,08:30:00,08:30:00,C2,1,,\nT6,08:32:00,08:32:00,C,2,,\n"]), in: directory)
        XCTAssertEqual(summary(try plan(["C2", "C", "--at", "2026-03-02 08:19"], db: db)), ["0 08:19:00-08:20:49 walk:C2>C"])
        XCTAssertEqual(summary(try plan(["C2", "C", "--at", "2026-03-02 08:19", "--max-walk", "100"], db: db)), ["1 08:30:00-08:32:00 2:C2>C"])
    }

    func testATripOfYesterdayPastMidnightCounts() throws {
        let late = PlanCommandTests.stopTimes + "\nT4,24:30:00,24:30:00,A,1,,\nT4,25:00:00,25:00:00,E,2,,\n"
        let directory = TemporaryDirectory()
        let db = try database(Self.city(["trips.txt": PlanCommandTests.trips + "R3,WD,T4\n", "stop_times.txt": late]), in: directory)
        // Tuesday 00:20: Monday's T4 leaves A at 00:30 Tuesday.
        XCTAssertEqual(summary(try plan(["A", "E", "--at", "2026-03-03 00:20"], db: db)), ["1 00:30:00-01:00:00 3:A>E"])
        // Saturday 00:20: Friday's T4 runs then.
        XCTAssertEqual(summary(try plan(["A", "E", "--at", "2026-03-07 00:20"], db: db)), ["1 00:30:00-01:00:00 3:A>E"])
        // Sunday 00:20: Saturday has no service; the next service day (Monday) counts: its T4
        // leaves on Tuesday 00:30.
        let sunday = try plan(["A", "E", "--at", "2026-03-08 00:20"], db: db)
        XCTAssertEqual(sunday.first?["departure"] as? String, "2026-03-10T00:30:00+01:00")
    }

    func testFrequencyRunsAreRidden() throws {
        let directory = TemporaryDirectory()
        let feed = Self.city([
            "trips.txt": PlanCommandTests.trips + "RF,WD,F1\n",
            "stop_times.txt": PlanCommandTests.stopTimes + "\nF1,00:00:00,00:00:00,A,1,,\nF1,00:20:00,00:20:00,E,2,,\n",
            "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nF1,07:00:00,09:00:00,600\n",
        ])
        let db = try database(feed, in: directory)
        XCTAssertEqual(summary(try plan(["A", "E", "--at", "2026-03-02 08:01"], db: db)), ["1 08:10:00-08:30:00 F:A>E"])
        // The last run starts before end_time (08:50), none at 09:00: the next is Tuesday's first.
        XCTAssertEqual(try plan(["A", "E", "--at", "2026-03-02 08:51"], db: db).first?["departure"] as? String, "2026-03-03T07:00:00+01:00")
    }

    func testAStationOriginBoardsAtAnyOfItsPlatforms() throws {
        let stops = PlanCommandTests.stops + "\nS,Station,52.55,13.40,1,\nS1,Station 1,52.5501,13.40,0,S\nS2,Station 2,52.5502,13.40,0,S\n"
        let directory = TemporaryDirectory()
        let db = try database(Self.city([
            "stops.txt": stops,
            "trips.txt": PlanCommandTests.trips + "R1,WD,T5\n",
            "stop_times.txt": PlanCommandTests.stopTimes + "\nT5,10:00:00,10:00:00,S2,1,,\nT5,10:30:00,10:30:00,A,2,,\n",
        ]), in: directory)
        XCTAssertEqual(summary(try plan(["S", "A", "--at", "2026-03-02 09:50", "--max-walk", "0"], db: db)), ["1 10:00:00-10:30:00 1:S2>A"])
    }

    func testPointsStartAndEndWithWalkLegs() throws {
        let directory = TemporaryDirectory()
        let db = try database(Self.city(), in: directory)
        // 100 m south of A to 100 m north of D.
        let journeys = try plan(["52.4991,13.40", "52.5309,13.40", "--at", "2026-03-02 07:55"], db: db)
        XCTAssertEqual(summary(journeys), ["1 08:03:44-09:01:16 walk:point>A 3:A>D walk:D>point",
                                           "2 07:58:44-08:36:16 walk:point>A 1:A>C 2:C>D walk:D>point"])
        let legs = try XCTUnwrap(journeys[0]["legs"] as? [[String: Any]])
        XCTAssertTrue(legs[0]["from_stop_id"] is NSNull)
        XCTAssertEqual(legs[0]["metres"] as? Int, 100)
        XCTAssertEqual(legs[0]["seconds"] as? Int, 76, "⌈100.08 m / 1.33⌉")
        // Two points within the walk radius: one walk.
        XCTAssertEqual(summary(try plan(["52.50,13.40", "52.501,13.40", "--at", "2026-03-02 08:00"], db: db)), ["0 08:00:00-08:01:24 walk:point>point"])
        // A point at a stop's place is a walk of 0 m.
        let zero = try plan(["52.50,13.40", "B", "--at", "2026-03-02 07:59"], db: db)
        XCTAssertEqual(summary(zero), ["1 08:00:00-08:10:00 walk:point>A 1:A>B"])
        XCTAssertEqual((zero[0]["legs"] as? [[String: Any]])?.first?["metres"] as? Int, 0)
    }

    func testArriveByGivesTheLatestDepartures() throws {
        let directory = TemporaryDirectory()
        let db = try database(Self.city(), in: directory)
        XCTAssertEqual(summary(try plan(["A", "D", "--arrive-by", "2026-03-02 09:00"], db: db)),
                       ["1 08:05:00-09:00:00 3:A>D"], "2 rides leave 08:00, earlier: not kept")
        XCTAssertEqual(summary(try plan(["A", "D", "--arrive-by", "2026-03-02 08:59"], db: db)), ["2 08:00:00-08:35:00 1:A>C 2:C>D"])
        XCTAssertEqual(summary(try plan(["A", "D", "--arrive-by", "2026-03-02 08:34"], db: db)), [])
    }

    func testTwoFeedsAreJoinedByAWalk() throws {
        let directory = TemporaryDirectory()
        let db = try database(Self.city(), in: directory)
        // A second feed whose stop X is 100 m from D, with a trip X → Y.
        let other = FeedFixture()
            .with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nX,Xray,52.5309,13.40\nY,Yankee,52.60,13.40\n")
            .with("trips.txt", "route_id,service_id,trip_id\nR,WD,U1\n")
            .with("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nU1,08:40:00,08:40:00,X,1\nU1,09:10:00,09:10:00,Y,2\n")
        let run = try CommandRun.transit(["import", try other.write(to: directory, as: "other"), "--db", db, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let journeys = try plan(["A", "Y", "--at", "2026-03-02 08:00"], db: db)
        // With two rides, U1 is missed on Monday and caught on Tuesday (the next service day
        // counts); with three, on Monday.
        XCTAssertEqual(summary(journeys), ["2 08:05:00-09:10:00 3:A>D walk:D>X 1:X>Y", "3 08:00:00-09:10:00 1:A>C 2:C>D walk:D>X 1:X>Y"])
        XCTAssertEqual(journeys.map { $0["arrival"] as? String }, ["2026-03-03T09:10:00+01:00", "2026-03-02T09:10:00+01:00"])
        XCTAssertEqual((journeys[1]["legs"] as? [[String: Any]])?.last?["feed"] as? String, "other")
    }

    func testNothingReachableIsAnEmptyListAndOneLine() throws {
        let directory = TemporaryDirectory()
        let db = try database(Self.city(), in: directory)
        let run = try CommandRun.transit(["plan", "D", "A", "--at", "2026-03-02 08:00", "--format", "json", "--db", db])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stdout, "{\"journeys\": []}\n")
        // Under JSON, why is one JSON note (docs/commands.md, "Empty answers"); a table says it in words.
        XCTAssertTrue(run.stderr.hasPrefix("{\"note\": \"no_journey\"}"), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1)
        let table = try CommandRun.transit(["plan", "D", "A", "--at", "2026-03-02 08:00", "--db", db])
        XCTAssertTrue(table.stderr.hasPrefix("No journey from D to A"), table.stderr)
    }

    func testMistakesExitSixtyFourNamingTheFlag() throws {
        let directory = TemporaryDirectory()
        let db = try database(Self.city(), in: directory)
        for (arguments, words) in [(["A", "NOPE", "--at", "2026-03-02 08:00"], "TO: no stop has stop_id 'NOPE'"),
                                   (["A", "D", "--at", "08:00"], "--at takes"),
                                   (["A", "D", "--at", "2026-03-02 08:00", "--walk-speed", "-1"], "--walk-speed"),
                                   (["A", "D"], "give --at TIME or --arrive-by TIME")] {
            let run = try CommandRun.transit(["plan"] + arguments + ["--db", db])
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(words), "\(arguments): \(run.stderr)")
        }
    }

    func testInputAnswersEveryRowInOrderAndCountsBadRows() throws {
        let directory = TemporaryDirectory()
        let db = try database(Self.city(), in: directory)
        try directory.write("questions.csv", "from,to,at,arrive_by,max_rides\nA,D,2026-03-02 08:00,,\nA,NOPE,2026-03-02 08:00,,\nA,D,,2026-03-02 09:00,\nA,D,2026-03-02 08:00,,1\n")
        let run = try CommandRun.transit(["plan", "--input", directory.file("questions.csv"), "--format", "json", "--db", db])
        XCTAssertEqual(run.status, 1, "a bad row makes the exit status 1")
        XCTAssertTrue(run.stderr.contains("row 2 (line 3): to: no stop has stop_id 'NOPE'"), run.stderr)
        let answers = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stdout)
        XCTAssertEqual(answers.map { $0["input"] as? Int }, [1, 2, 3, 4])
        XCTAssertEqual(summary(answers[0]["journeys"] as? [[String: Any]] ?? []), ["1 08:05:00-09:00:00 3:A>D", "2 08:00:00-08:35:00 1:A>C 2:C>D"])
        XCTAssertNotNil(answers[1]["error"] as? String)
        XCTAssertEqual(summary(answers[2]["journeys"] as? [[String: Any]] ?? []), ["1 08:05:00-09:00:00 3:A>D"], "arrive_by")
        XCTAssertEqual(summary(answers[3]["journeys"] as? [[String: Any]] ?? []), ["1 08:05:00-09:00:00 3:A>D"], "max_rides 1")
        // The same answers as one question each.
        XCTAssertEqual(summary(answers[0]["journeys"] as? [[String: Any]] ?? []), summary(try plan(["A", "D", "--at", "2026-03-02 08:00"], db: db)))
    }

    func testReachListsStopsWithinTheBudgetWithTheirRides() throws {
        let directory = TemporaryDirectory()
        let db = try database(Self.city(), in: directory)
        let run = try CommandRun.transit(["reach", "A", "--at", "2026-03-02 08:00", "--within", "30", "--format", "json", "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let stops = try XCTUnwrap(object["stops"] as? [[String: Any]])
        XCTAssertEqual(stops.map { "\($0["stop_id"] as? String ?? "?") \(time($0["arrival"])) \($0["rides"] as? Int ?? -1)" },
                       ["A 08:00:00 0", "B 08:10:00 1", "C 08:20:00 1", "C2 08:21:49 1"])
    }
}
