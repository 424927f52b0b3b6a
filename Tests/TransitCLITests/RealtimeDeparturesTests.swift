import XCTest
import Foundation
import GTFSRealtime
import SwiftProtobuf
import TestSupport

/// Departures with stored realtime data, on the demo feed (Monday 2026-03-02, Europe/Berlin),
/// one rule at a time; stale data and --no-realtime show the timetable.
final class RealtimeDeparturesTests: XCTestCase {
    /// 2026-03-02 07:55 in Berlin.
    private let messageTime: UInt64 = 1_772_434_500

    private typealias Update = TransitRealtime_TripUpdate.StopTimeUpdate

    private func stop(sequence: UInt32? = nil, stopID: String? = nil, departureDelay: Int32? = nil, departureTime: Int64? = nil,
                      arrivalDelay: Int32? = nil, relationship: Update.ScheduleRelationship? = nil) -> Update {
        .with { update in
            if let sequence { update.stopSequence = sequence }
            if let stopID { update.stopID = stopID }
            if departureDelay != nil || departureTime != nil {
                update.departure = .with {
                    if let departureDelay { $0.delay = departureDelay }
                    if let departureTime { $0.time = departureTime }
                }
            }
            if let arrivalDelay { update.arrival = .with { $0.delay = arrivalDelay } }
            if let relationship { update.scheduleRelationship = relationship }
        }
    }

    private func trip(_ tripID: String, date: String = "20260302", routeID: String? = nil,
                      relationship: TransitRealtime_TripDescriptor.ScheduleRelationship? = nil,
                      delay: Int32? = nil, _ stops: [Update]) -> TransitRealtime_FeedEntity {
        .with { entity in
            entity.id = "tu-" + tripID
            entity.tripUpdate = .with { update in
                update.trip = .with {
                    $0.tripID = tripID
                    $0.startDate = date
                    if let routeID { $0.routeID = routeID }
                    if let relationship { $0.scheduleRelationship = relationship }
                }
                if let delay { update.delay = delay }
                update.stopTimeUpdate = stops
            }
        }
    }

    /// The test's folder, kept until the test ends.
    private var directory: TemporaryDirectory?

    /// A copy of the demo database with the test's realtime message read into it.
    private func database() throws -> String {
        let directory = TemporaryDirectory()
        self.directory = directory
        let db = directory.file("db.sqlite")
        try FileManager.default.copyItem(atPath: try DemoDatabase.path(), toPath: db)
        let message = TransitRealtime_FeedMessage.with { message in
            message.header = .with { $0.gtfsRealtimeVersion = "2.0"; $0.timestamp = messageTime }
            message.entity = [
                // Rules 3 and 4: 5 minutes late from the first stop on; rule 5: CAFE skipped.
                trip("T1", [stop(sequence: 1, departureDelay: 300), stop(sequence: 3, relationship: .skipped)]),
                // Rule 2 by stop_id and rule 3: the time (08:43) wins over the delay; stops before
                // the first update take the trip's delay.
                trip("T6", delay: 60, [stop(stopID: "GOR", departureDelay: 999, departureTime: 1_772_437_380)]),
                // Rule 3: an arrival delay when the departure has none.
                trip("T2", [stop(sequence: 2, arrivalDelay: 120)]),
                // Rule 5: NO_DATA from GOR on: the timetable there and after.
                trip("T3", [stop(sequence: 1, departureDelay: 600), stop(sequence: 2, relationship: .noData)]),
                // Rule 6: Saturday's T4 cancelled.
                trip("T4", date: "20260307", relationship: .canceled, []),
                // Rule 6: a NEW trip on route R1, HBF_1 08:20 → GOR 08:28 → ZOO 08:50.
                trip("X1", routeID: "R1", relationship: .new, [
                    stop(stopID: "HBF_1", departureTime: 1_772_436_000), stop(stopID: "GOR", departureTime: 1_772_436_480),
                    stop(stopID: "ZOO", departureTime: 1_772_437_800),
                ]),
            ]
        }
        let file = try directory.write("updates.pb", bytes: try message.serializedBytes())
        let read = try CommandRun.transit(["realtime", file, "--db", db])
        XCTAssertEqual(read.status, 0, read.stderr)
        return db
    }

    private func departures(_ db: String, _ arguments: [String]) throws -> [[String: Any]] {
        let run = try CommandRun.transit(["departures"] + arguments + ["--format", "json", "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stdout)
    }

    private func lines(_ rows: [[String: Any]]) -> [String] {
        rows.map { row in
            let time = (row["departure"] as? String).map { String($0.dropFirst(11).prefix(5)) } ?? "?"
            let delay = (row["delay_s"] as? Int).map(String.init) ?? "-"
            return "\(row["trip_id"] as? String ?? "?")@\(row["stop_id"] as? String ?? "?") \(time) \(delay) \(row["realtime"] as? Bool == true ? "rt" : "tt")"
        }
    }

    func testDelaysPropagateAndWidenTheWindow() throws {
        let db = try database()
        // Rule 7: T1 is scheduled at GOR at 08:10, before --at, but leaves at 08:15.
        let gor = try departures(db, ["--stop", "GOR", "--at", "2026-03-02 08:12", "--within", "10"])
        XCTAssertEqual(lines(gor), ["T1@GOR 08:15 300 rt"])
        XCTAssertEqual(gor.first?["scheduled"] as? String, "2026-03-02T08:10:00+01:00")
        XCTAssertEqual(gor.first?["gtfs_time"] as? String, "08:10:00")
        XCTAssertEqual(gor.first?["minutes"] as? Int, 3, "minutes count to the predicted time")
        // Rule 5: no departure from the skipped CAFE; LODZ after it keeps the 5 minutes.
        XCTAssertEqual(lines(try departures(db, ["--stop", "CAFE", "--at", "2026-03-02 08:00", "--within", "60"])), [])
        XCTAssertEqual(lines(try departures(db, ["--stop", "LODZ", "--at", "2026-03-02 08:25", "--within", "20"])), ["T1@LODZ 08:35 300 rt"])
        // --explain shows the realtime requests, each an index search.
        let explained = try CommandRun.transit(["departures", "--stop", "GOR", "--at", "2026-03-02 08:12", "--explain", "--db", db])
        XCTAssertTrue(explained.stderr.contains("SEARCH realtime_stop_times USING PRIMARY KEY (stop=? AND scheduled>? AND scheduled<?)"), explained.stderr)
        XCTAssertTrue(explained.stderr.contains("SEARCH stop_times USING PRIMARY KEY (trip=? AND stop_sequence=?)"), "T1 moved into the window is read by its key: \(explained.stderr)")
        XCTAssertTrue(explained.stderr.contains("SEARCH realtime_added_departures USING INDEX realtime_added_departures_by_stop"), explained.stderr)
        XCTAssertFalse(explained.stderr.contains("warning:"), explained.stderr)
        // Without realtime the same question is the timetable's.
        XCTAssertEqual(lines(try departures(db, ["--stop", "GOR", "--at", "2026-03-02 08:05", "--within", "10", "--no-realtime"])),
                       ["T1@GOR 08:10 - tt"])
        XCTAssertEqual(lines(try departures(db, ["--stop", "CAFE", "--at", "2026-03-02 08:00", "--within", "60", "--no-realtime"])),
                       ["T1@CAFE 08:20 - tt"])
    }

    func testTimesWinOverDelaysAndArrivalsStandInForDepartures() throws {
        let db = try database()
        // T6: the trip's delay before the first update (HBF_1), the time at GOR (08:43: +180, not +999).
        XCTAssertEqual(lines(try departures(db, ["--stop", "HBF", "--at", "2026-03-02 08:25", "--within", "10"])),
                       ["T6@HBF_1 08:31 60 rt"])
        XCTAssertEqual(lines(try departures(db, ["--stop", "GOR", "--at", "2026-03-02 08:35", "--within", "10", "--max-age", "60"])), ["T6@GOR 08:43 180 rt"])
        // T2: only an arrival delay at LODZ.
        XCTAssertEqual(lines(try departures(db, ["--stop", "LODZ", "--at", "2026-03-02 09:05", "--within", "10", "--max-age", "90"])), ["T2@LODZ 09:12 120 rt"])
    }

    func testNoDataShowsTheTimetableUntilTheNextUpdate() throws {
        let db = try database()
        let evening = ["--at", "2026-03-02 23:45", "--within", "90", "--max-age", "1440"]
        XCTAssertEqual(lines(try departures(db, ["--stop", "HBF_2"] + evening)), ["T3@HBF_2 00:00 600 rt"])
        XCTAssertEqual(lines(try departures(db, ["--stop", "GOR"] + evening)), ["T3@GOR 00:05 - tt"])
        XCTAssertEqual(lines(try departures(db, ["--stop", "OHARA"] + evening)), ["T3@OHARA 01:10 - tt"])
    }

    func testCancelledRunsHaveNoDeparturesAndNewTripsHaveTheirs() throws {
        let db = try database()
        let saturday = ["--stop", "HBF_1", "--at", "2026-03-07 09:55", "--within", "10", "--max-age", "14400"]
        XCTAssertEqual(lines(try departures(db, saturday)), [], "Saturday's T4 is cancelled")
        XCTAssertEqual(lines(try departures(db, saturday + ["--no-realtime"])), ["T4@HBF_1 10:00 - tt"])
        let new = try departures(db, ["--stop", "HBF_1", "--at", "2026-03-02 08:15", "--within", "10"])
        XCTAssertEqual(lines(new), ["X1@HBF_1 08:20 - rt"])
        XCTAssertTrue(new.first?["gtfs_time"] is NSNull)
        XCTAssertTrue(new.first?["scheduled"] is NSNull)
        XCTAssertEqual(new.first?["route"] as? String, "1", "the descriptor's route_id, R1")
        XCTAssertEqual(new.first?["headsign"] as? String, "Tierpark", "its last updated stop")
        XCTAssertEqual(new.first?["service_date"] as? String, "2026-03-02")
        // The last updated stop is not a departure.
        XCTAssertEqual(lines(try departures(db, ["--stop", "ZOO", "--at", "2026-03-02 08:45", "--within", "10"])), [])
    }

    func testATripShowsItsPredictions() throws {
        let db = try database()
        let run = try CommandRun.transit(["trip", "T1", "--date", "2026-03-02", "--format", "json", "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr)
        let calls = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(calls.map { "\($0["stop_id"]!) \(($0["departure"] as? String).map { String($0.dropFirst(11).prefix(5)) } ?? "-") \($0["delay_s"]!) \($0["skipped"]!)" },
                       ["HBF_1 08:05 300 0", "GOR 08:15 300 0", "CAFE 08:25 300 1", "LODZ 08:35 300 0", "ZOO 08:45 300 0"])
        XCTAssertEqual(calls.first?["gtfs_departure"] as? String, "08:00:00", "the feed's time stays")
        let table = try CommandRun.transit(["trip", "T1", "--date", "2026-03-02", "--db", db])
        XCTAssertTrue(table.stdout.contains("skipped (realtime)") && table.stdout.contains("+5 min (realtime)"), table.stdout)
        let timetable = try CommandRun.transit(["trip", "T1", "--date", "2026-03-02", "--no-realtime", "--format", "json", "--db", db])
        XCTAssertFalse(timetable.stdout.contains("\"realtime\": true"), timetable.stdout)
        // Saturday's T4 is cancelled; T6 runs at 08:30, 35 minutes after the message: stale by default.
        let cancelled = try CommandRun.transit(["trip", "T4", "--date", "2026-03-07", "--max-age", "14400", "--db", db])
        XCTAssertTrue(cancelled.stderr.contains("realtime data says trip T4 is cancelled on 2026-03-07"), cancelled.stderr)
        let stale = try CommandRun.transit(["trip", "T6", "--date", "2026-03-02", "--db", db])
        XCTAssertTrue(stale.stderr.contains("realtime data of lindenau is stale for this run"), stale.stderr)
    }

    func testStaleDataIsSaidAndTheTimetableShown() throws {
        let db = try database()
        let run = try CommandRun.transit(["departures", "--stop", "LODZ", "--at", "2026-03-02 09:05", "--within", "10", "--format", "json", "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "realtime data of lindenau is stale: its messages are from 2026-03-02T07:55:00+01:00, 70 min before the time asked (--max-age 30 min); showing the timetable\n")
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(lines(rows), ["T2@LODZ 09:10 - tt"], "the timetable's time, not the stale +2 min")
        XCTAssertEqual(lines(try departures(db, ["--stop", "LODZ", "--at", "2026-03-02 09:05", "--within", "10", "--max-age", "90"])), ["T2@LODZ 09:12 120 rt"])
        let table = try CommandRun.transit(["departures", "--stop", "GOR", "--at", "2026-03-02 08:12", "--within", "10", "--db", db])
        XCTAssertTrue(table.stdout.contains("08:15  3 min  +5 min    1"), table.stdout)
    }

    /// A feed of its own: 30 trips leave S every 2 minutes from 08:00 (P00 … P29) for E; realtime
    /// data moves some of them, earlier and later, in and out of windows, skips and cancels.
    private func busyStopDatabase(_ directory: TemporaryDirectory) throws -> (db: String, predicted: [(trip: String, minute: Int)],
                                                                            cancelled: [(trip: String, minute: Int)]) {
        let trips = (0..<30).map { String(format: "P%02d", $0) }
        let fixture = FeedFixture()
            .with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nS,Start,52.5,13.4\nE,End,52.51,13.41\n")
            .with("trips.txt", "route_id,service_id,trip_id\n" + trips.map { "R,WD,\($0)\n" }.joined())
            .with("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + trips.enumerated().map { index, trip in
                let minute = 8 * 60 + 2 * index
                let time = { (m: Int) in String(format: "%02d:%02d:00", m / 60, m % 60) }
                return "\(trip),\(time(minute)),\(time(minute)),S,1\n\(trip),\(time(minute + 30)),\(time(minute + 30)),E,2\n"
            }.joined())
        let feed = try fixture.write(to: directory, as: "busy")
        let db = directory.file("busy.sqlite")
        let imported = try CommandRun.transit(["import", feed, "--db", db])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        // Delays in seconds at S (nil: skipped there); P10's run is cancelled.
        let delays: [String: Int?] = ["P01": 240, "P03": 600, "P05": nil, "P07": -180, "P12": 1500, "P20": -420, "P21": 0]
        let message = TransitRealtime_FeedMessage.with { message in
            message.header = .with { $0.gtfsRealtimeVersion = "2.0"; $0.timestamp = messageTime }
            message.entity = delays.sorted { $0.key < $1.key }.map { trip, delay in
                self.trip(trip, [delay.map { stop(sequence: 1, departureDelay: Int32($0)) } ?? stop(sequence: 1, relationship: .skipped)])
            } + [self.trip("P10", relationship: .canceled, [])]
        }
        let file = try directory.write("busy.pb", bytes: try message.serializedBytes())
        let read = try CommandRun.transit(["realtime", file, "--db", db])
        XCTAssertEqual(read.status, 0, read.stderr)
        // Each trip's predicted minute at S, computed here from the same delays; the cancelled
        // departures (skipped at S, or the whole run cancelled) at their scheduled minute.
        let predicted = trips.enumerated().compactMap { index, trip -> (trip: String, minute: Int)? in
            if trip == "P10" { return nil }
            let scheduled = 8 * 60 * 60 + 120 * index
            guard let change = delays[trip] else { return (trip, scheduled / 60) }
            guard let delay = change else { return nil }
            return (trip, (scheduled + delay) / 60)
        }
        let cancelled = trips.enumerated().compactMap { index, trip -> (trip: String, minute: Int)? in
            trip == "P10" || delays[trip] == .some(nil) ? (trip, 8 * 60 + 2 * index) : nil
        }
        return (db, predicted, cancelled)
    }

    func testTheWindowOrderAndLimitFollowPredictedTimes() throws {
        let directory = TemporaryDirectory()
        let (db, predicted, _) = try busyStopDatabase(directory)
        let ordered = predicted.sorted { ($0.minute, $0.trip) < ($1.minute, $1.trip) }
        // Every window start from 07:50 to 08:40 in 5-minute steps, 20 minutes long, with limits
        // from 1 to all: the first N of the departures predicted in the window, in predicted order.
        for start in stride(from: 7 * 60 + 50, through: 8 * 60 + 40, by: 5) {
            let at = String(format: "2026-03-02 %02d:%02d", start / 60, start % 60)
            let inWindow = ordered.filter { $0.minute >= start && $0.minute <= start + 20 }.map { "\($0.trip) \($0.minute)" }
            for limit in [1, 2, 3, 5, 8, 0] {
                let rows = try departures(db, ["--stop", "S", "--at", at, "--within", "20", "--limit", String(limit), "--max-age", "120"])
                let got = rows.map { row -> String in
                    let time = (row["departure"] as? String ?? "").dropFirst(11).prefix(5).split(separator: ":").compactMap { Int($0) }
                    return "\(row["trip_id"] as? String ?? "?") \(time.count == 2 ? time[0] * 60 + time[1] : -1)"
                }
                XCTAssertEqual(got, limit == 0 ? inWindow : Array(inWindow.prefix(limit)), "--at \(at) --limit \(limit)")
            }
        }
    }

    /// With --cancelled, the skipped stop and the cancelled run are listed too, at their scheduled
    /// minute and marked, and take their place in the window's order and limit.
    func testCancelledDeparturesTakeTheirTimetablePlaceWhenAsked() throws {
        let directory = TemporaryDirectory()
        let (db, predicted, cancelled) = try busyStopDatabase(directory)
        let ordered = (predicted.map { ($0.trip, $0.minute, false) } + cancelled.map { ($0.trip, $0.minute, true) })
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        XCTAssertEqual(cancelled.map(\.trip), ["P05", "P10"])
        for start in stride(from: 7 * 60 + 50, through: 8 * 60 + 40, by: 5) {
            let at = String(format: "2026-03-02 %02d:%02d", start / 60, start % 60)
            let inWindow = ordered.filter { $0.1 >= start && $0.1 <= start + 20 }.map { "\($0.0) \($0.1)\($0.2 ? " cancelled" : "")" }
            for limit in [1, 2, 3, 5, 8, 0] {
                let rows = try departures(db, ["--stop", "S", "--at", at, "--within", "20", "--limit", String(limit), "--max-age", "120", "--cancelled"])
                let got = rows.map { row -> String in
                    let time = (row["departure"] as? String ?? "").dropFirst(11).prefix(5).split(separator: ":").compactMap { Int($0) }
                    let mark = row["cancelled"] as? Bool == true ? " cancelled" : ""
                    return "\(row["trip_id"] as? String ?? "?") \(time.count == 2 ? time[0] * 60 + time[1] : -1)\(mark)"
                }
                XCTAssertEqual(got, limit == 0 ? inWindow : Array(inWindow.prefix(limit)), "--at \(at) --limit \(limit) --cancelled")
            }
        }
        // A cancelled row says so everywhere: realtime, no delay, its scheduled time; the table's mark.
        let p10 = try departures(db, ["--stop", "S", "--at", "2026-03-02 08:20", "--within", "0", "--max-age", "120", "--cancelled"])
        XCTAssertEqual(p10.count, 1)
        XCTAssertEqual(p10.first?["realtime"] as? Bool, true)
        XCTAssertTrue(p10.first?["delay_s"] is NSNull)
        XCTAssertEqual(p10.first?["scheduled"] as? String, p10.first?["departure"] as? String)
        let table = try CommandRun.transit(["departures", "--stop", "S", "--at", "2026-03-02 08:20", "--within", "0", "--max-age", "120",
                                            "--cancelled", "--db", db])
        XCTAssertTrue(table.stdout.contains("cancelled"), table.stdout)
        // Without the flag the cancelled rows are left out, and every row says it is not cancelled.
        let plain = try departures(db, ["--stop", "S", "--at", "2026-03-02 08:00", "--within", "30", "--max-age", "120"])
        XCTAssertFalse(plain.contains { $0["trip_id"] as? String == "P10" || $0["trip_id"] as? String == "P05" })
        XCTAssertTrue(plain.allSatisfy { $0["cancelled"] as? Bool == false })
    }

    /// A changed stop time no timetable row brought, on a date whose request was not cut by its
    /// limit, is no departure (here every trip's last stop): it is not looked up by its key.
    func testChangesAtStopsNobodyBoardsAtAreNotLookedUp() throws {
        let directory = TemporaryDirectory()
        let (db, _, _) = try busyStopDatabase(directory)
        XCTAssertEqual(try departures(db, ["--stop", "E", "--at", "2026-03-02 08:30", "--within", "20", "--max-age", "120"]).count, 0)
        let explained = try CommandRun.transit(["departures", "--stop", "E", "--at", "2026-03-02 08:30", "--within", "20", "--max-age", "120",
                                                "--explain", "--db", db])
        XCTAssertEqual(explained.status, 0, explained.stderr)
        XCTAssertTrue(explained.stderr.contains("SEARCH realtime_stop_times USING PRIMARY KEY"), "the changes at E are read: \(explained.stderr)")
        XCTAssertFalse(explained.stderr.contains("SEARCH stop_times USING PRIMARY KEY (trip=? AND stop_sequence=?)"), explained.stderr)
    }

    func testFrequencyRunsAreMatchedByStartTime() throws {
        let directory = TemporaryDirectory()
        // F runs every 15 minutes from 06:00 to 07:00 (06:00, 06:15, 06:30, 06:45) and reaches B
        // 10 minutes after leaving A.
        let fixture = FeedFixture()
            .with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nA,A,52.5,13.4\nB,B,52.5,13.4\nC,C,52.5,13.4\n")
            .with("trips.txt", "route_id,service_id,trip_id\nR,WD,F\n")
            .with("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nF,06:00:00,06:00:00,A,1\nF,06:10:00,06:10:00,B,2\nF,06:20:00,06:20:00,C,3\n")
            .with("frequencies.txt", "trip_id,start_time,end_time,headway_secs\nF,06:00:00,07:00:00,900\n")
        let feed = try fixture.write(to: directory, as: "frequencies")
        let db = directory.file("frequencies.sqlite")
        XCTAssertEqual(try CommandRun.transit(["import", feed, "--db", db]).status, 0)
        // The 06:15 run is 4 minutes late from A on (at B: 06:29 instead of 06:25); an update of
        // F without start_time cannot name a run.
        let message = TransitRealtime_FeedMessage.with { message in
            message.header = .with { $0.gtfsRealtimeVersion = "2.0"; $0.timestamp = 1_772_428_200 }  // 06:10 in Berlin
            var late = trip("F", [stop(sequence: 1, departureDelay: 240)])
            late.tripUpdate.trip.startTime = "06:15:00"
            var unnamed = trip("F", [stop(sequence: 1, departureDelay: 600)])
            unnamed.id = "no-start-time"
            message.entity = [late, unnamed]
        }
        let file = try directory.write("frequencies.pb", bytes: try message.serializedBytes())
        let read = try CommandRun.transit(["realtime", file, "--db", db, "--format", "json"])
        XCTAssertEqual(read.status, 0, read.stderr)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(summary["matched"] as? Int, 1)
        XCTAssertEqual(summary["unmatched"] as? Int, 1)
        XCTAssertEqual(summary["unmatched_examples"] as? [String], ["F (runs by frequencies.txt: start_time is needed to tell its runs apart)"])
        let rows = try departures(db, ["--stop", "B", "--at", "2026-03-02 06:10", "--within", "40"])
        XCTAssertEqual(lines(rows), ["F@B 06:10 - tt", "F@B 06:29 240 rt", "F@B 06:40 - tt"])
        XCTAssertEqual(rows[1]["gtfs_time"] as? String, "06:25:00", "the run's own time, not the template's")
        XCTAssertEqual(lines(try departures(db, ["--stop", "B", "--at", "2026-03-02 06:10", "--within", "40", "--no-realtime"])),
                       ["F@B 06:10 - tt", "F@B 06:25 - tt", "F@B 06:40 - tt"])
    }

    func testRealtimeTablesOfAnOlderLayoutAreReplaced() throws {
        // A database whose realtime changes were stored by a development build, keyed by trip.
        let db = try database()
        let sqlite = try CommandRun.run("/usr/bin/env", ["sqlite3", db, """
            DROP TABLE realtime_stop_times;
            CREATE TABLE realtime_stop_times (trip INTEGER NOT NULL, service_date INTEGER NOT NULL, stop_sequence INTEGER NOT NULL, delay INTEGER, skipped INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (trip, service_date, stop_sequence)) WITHOUT ROWID;
            ALTER TABLE realtime_feeds DROP COLUMN added_departures;
            """])
        XCTAssertEqual(sqlite.status, 0, sqlite.stderr)
        // Read as no realtime data until the next read, which makes the tables anew.
        XCTAssertEqual(lines(try departures(db, ["--stop", "GOR", "--at", "2026-03-02 08:05", "--within", "10"])), ["T1@GOR 08:10 - tt"])
        let message = TransitRealtime_FeedMessage.with { message in
            message.header = .with { $0.gtfsRealtimeVersion = "2.0"; $0.timestamp = messageTime }
            message.entity = [trip("T1", [stop(sequence: 1, departureDelay: 300)])]
        }
        let file = try XCTUnwrap(directory).write("again.pb", bytes: try message.serializedBytes())
        let read = try CommandRun.transit(["realtime", file, "--db", db])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(lines(try departures(db, ["--stop", "GOR", "--at", "2026-03-02 08:12", "--within", "10"])), ["T1@GOR 08:15 300 rt"])
    }
}
