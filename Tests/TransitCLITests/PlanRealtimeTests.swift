import XCTest
import Foundation
import GTFSRealtime
import SwiftProtobuf
import TestSupport

/// `transit plan` and `transit reach` with stored GTFS-Realtime data, on the city of
/// `PlanCommandTests` (Monday 2026-03-02, Europe/Berlin): predicted times, skipped calls and
/// cancelled runs replace the timetable's, rides say when their times are predicted, and stale
/// data or `--no-realtime` plan on the timetable.
///
/// The city on Mondays: T1 A 08:00 → B 08:10 → C 08:20; T2 C 08:25 → D 08:35; T3 A 08:05 →
/// D 09:00. On the timetable, A → D at 08:00 is T3 (1 ride, 09:00) or T1 + T2 (2 rides, 08:35).
final class PlanRealtimeTests: XCTestCase {
    /// 2026-03-02 07:55 in Berlin.
    private let messageTime: UInt64 = 1_772_434_500

    private typealias Update = TransitRealtime_TripUpdate.StopTimeUpdate

    private func stop(_ sequence: UInt32, delay: Int32? = nil, skipped: Bool = false) -> Update {
        .with { update in
            update.stopSequence = sequence
            if let delay { update.departure = .with { $0.delay = delay } }
            if skipped { update.scheduleRelationship = .skipped }
        }
    }

    private func trip(_ tripID: String, startTime: String? = nil, cancelled: Bool = false, _ stops: [Update] = []) -> TransitRealtime_FeedEntity {
        .with { entity in
            entity.id = "tu-" + tripID + (startTime ?? "")
            entity.tripUpdate = .with { update in
                update.trip = .with {
                    $0.tripID = tripID
                    $0.startDate = "20260302"
                    if let startTime { $0.startTime = startTime }
                    if cancelled { $0.scheduleRelationship = .canceled }
                }
                update.stopTimeUpdate = stops
            }
        }
    }

    /// The test's folder, kept until the test ends.
    private var directory: TemporaryDirectory?

    /// The city (with `changes` to its files) imported, and a message of `entities` read into it.
    private func database(_ entities: [TransitRealtime_FeedEntity], changes: [String: String?] = [:]) throws -> String {
        let directory = TemporaryDirectory()
        self.directory = directory
        let db = directory.file("transit.sqlite")
        let imported = try CommandRun.transit(["import", try PlanCommandTests.city(changes).write(to: directory, as: "city"), "--db", db, "--quiet"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        try readRealtime(entities, timestamp: messageTime, into: db, in: directory)
        return db
    }

    /// The journeys of `transit plan` as "rides dep-arr route:from>to[*]…" (`*`: predicted times),
    /// with the run's stderr.
    private func plan(_ arguments: [String], db: String, file: StaticString = #filePath, line: UInt = #line) throws -> (journeys: [String], stderr: String) {
        let run = try CommandRun.transit(["plan"] + arguments + ["--format", "json", "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
        let journeys = try XCTUnwrap(object["journeys"] as? [[String: Any]], run.stdout)
        return (journeys.map { journey in
            let legs = (journey["legs"] as? [[String: Any]] ?? []).map { leg in
                leg["mode"] as? String == "ride"
                    ? "\(leg["route_short_name"] as? String ?? "?"):\(leg["from_stop_id"] as? String ?? "-")>\(leg["to_stop_id"] as? String ?? "-")"
                        + (leg["realtime"] as? Bool == true ? "*" : "")
                    : "walk"
            }
            return "\(journey["rides"] as? Int ?? -1) \(clock(journey["departure"]))-\(clock(journey["arrival"])) " + legs.joined(separator: " ")
        }, run.stderr)
    }

    /// "08:35" out of "2026-03-02T08:35:00+01:00".
    private func clock(_ value: Any?) -> String {
        guard let text = value as? String, text.count >= 16 else { return "?" }
        return String(text.dropFirst(11).prefix(5))
    }

    private let question = ["A", "D", "--at", "2026-03-02 08:00"]

    func testADelayedRideArrivesAtItsPredictedTime() throws {
        // T2 five minutes late from C: the change still works, and arrives at 08:40.
        let db = try database([trip("T2", [stop(1, delay: 300)])])
        XCTAssertEqual(try plan(question, db: db).journeys, ["1 08:05-09:00 3:A>D", "2 08:00-08:40 1:A>C 2:C>D*"])
        XCTAssertEqual(try plan(question + ["--no-realtime"], db: db).journeys, ["1 08:05-09:00 3:A>D", "2 08:00-08:35 1:A>C 2:C>D"])
    }

    func testADelayThatBreaksAChangeDropsTheJourney() throws {
        // T1 six minutes late: at C at 08:26, after T2 left at 08:25.
        let db = try database([trip("T1", [stop(1, delay: 360)])])
        XCTAssertEqual(try plan(question, db: db).journeys, ["1 08:05-09:00 3:A>D"])
        // A rider at A at 08:05 catches the late T1 (08:06) to C, predicted at 08:26.
        XCTAssertEqual(try plan(["A", "C", "--at", "2026-03-02 08:05"], db: db).journeys, ["1 08:06-08:26 1:A>C*"])
    }

    func testACancelledRunIsNotRidden() throws {
        let db = try database([trip("T2", cancelled: true)])
        XCTAssertEqual(try plan(question, db: db).journeys, ["1 08:05-09:00 3:A>D"])
        // reach: D only by T3 then.
        let run = try CommandRun.transit(["reach", "A", "--at", "2026-03-02 08:00", "--within", "60", "--format", "json", "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr)
        let stops = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["stops"] as? [[String: Any]])
        let d = try XCTUnwrap(stops.first { $0["stop_id"] as? String == "D" })
        XCTAssertEqual(d["arrival"] as? String, "2026-03-02T09:00:00+01:00")
    }

    func testASkippedCallCanBeNeitherLeftNorBoarded() throws {
        // T1 skips C: nobody leaves it there, so no change to T2.
        let db = try database([trip("T1", [stop(3, skipped: true)])])
        XCTAssertEqual(try plan(question, db: db).journeys, ["1 08:05-09:00 3:A>D"])
        XCTAssertEqual(try plan(["A", "B", "--at", "2026-03-02 08:00"], db: db).journeys, ["1 08:00-08:10 1:A>B*"],
                       "the calls before the skipped one stay usable")
    }

    func testArriveByUsesPredictedTimes() throws {
        // T2 five minutes late: nothing arrives by 08:38 any more (the change now arrives at
        // 08:40, T3 at 09:00); by 08:40 the change does.
        // Freshness is judged at the time asked: the message (07:55) is 43 minutes older than 08:38.
        let db = try database([trip("T2", [stop(1, delay: 300)])])
        let fresh = ["--max-age", "60"]
        XCTAssertEqual(try plan(["A", "D", "--arrive-by", "2026-03-02 08:38"] + fresh, db: db).journeys, [])
        XCTAssertEqual(try plan(["A", "D", "--arrive-by", "2026-03-02 08:40"] + fresh, db: db).journeys, ["2 08:00-08:40 1:A>C 2:C>D*"])
        XCTAssertEqual(try plan(["A", "D", "--arrive-by", "2026-03-02 08:38", "--no-realtime"] + fresh, db: db).journeys, ["2 08:00-08:35 1:A>C 2:C>D"])
        XCTAssertEqual(try plan(["A", "D", "--arrive-by", "2026-03-02 08:38"], db: db).journeys, ["2 08:00-08:35 1:A>C 2:C>D"],
                       "stale by the default --max-age of 30 minutes")
    }

    func testStaleDataPlansOnTheTimetableAndSaysSo() throws {
        let db = try database([trip("T2", cancelled: true)])
        // The message is from 07:55: at 08:00 it is 5 minutes old, more than --max-age 3.
        let late = try plan(["A", "D", "--at", "2026-03-02 08:00", "--max-age", "3"], db: db)
        XCTAssertEqual(late.journeys, ["1 08:05-09:00 3:A>D", "2 08:00-08:35 1:A>C 2:C>D"])
        XCTAssertTrue(late.stderr.contains("realtime data of city is stale"), late.stderr)
        XCTAssertTrue(late.stderr.contains("--max-age 3 min"), late.stderr)
    }

    func testAFrequencyRunIsChangedAloneByItsStartTime() throws {
        let db = try database([trip("F1", startTime: "08:10:00", [stop(1, delay: 120)])], changes: [
            "trips.txt": PlanCommandTests.trips + "RF,WD,F1\n",
            "stop_times.txt": PlanCommandTests.stopTimes + "\nF1,00:00:00,00:00:00,A,1,,\nF1,00:20:00,00:20:00,E,2,,\n",
            "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nF1,07:00:00,09:00:00,600\n",
        ])
        XCTAssertEqual(try plan(["A", "E", "--at", "2026-03-02 08:01"], db: db).journeys, ["1 08:12-08:32 F:A>E*"])
        XCTAssertEqual(try plan(["A", "E", "--at", "2026-03-02 08:13"], db: db).journeys, ["1 08:20-08:40 F:A>E"],
                       "the next run keeps the timetable")
    }

    func testExplainShowsTheRealtimeReadsAsIndexSearches() throws {
        let db = try database([trip("T2", [stop(1, delay: 300)])])
        let run = try CommandRun.transit(["plan"] + question + ["--explain", "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("SEARCH realtime_stop_times USING PRIMARY KEY (stop=? AND scheduled>? AND scheduled<?)"), run.stderr)
        XCTAssertTrue(run.stderr.contains("runs' realtime changes read"), run.stderr)
        // The lookups and the pattern reads are each reported once, as one statement run many times.
        XCTAssertEqual(run.stderr.components(separatedBy: "FROM \"realtime_stop_times\"").count - 1, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("-- realtime changes: "), run.stderr)
        XCTAssertTrue(run.stderr.contains("-- pattern reads: "), run.stderr)
        XCTAssertTrue(run.stderr.contains("SEARCH planner_1 USING INTEGER PRIMARY KEY (rowid=?)"), run.stderr)
        XCTAssertTrue(run.stderr.contains("realtime_trip_updates USING INDEX realtime_trip_updates_by_feed"), run.stderr)
    }
}
