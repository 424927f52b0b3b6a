import XCTest
import Foundation
import GTFSRealtime
import SwiftProtobuf
import TestSupport

/// `transit realtime`: messages read whole and stored per feed, trip updates matched to trip runs
/// by rule 1, unmatched ones reported, and every broken input one line with the data kept.
final class RealtimeCommandTests: XCTestCase {
    /// The demo feed's instants: 2026-03-03 00:10 in Berlin (UTC+1) is 2026-03-02 23:10 UTC.
    private let tuesdayJustAfterMidnight: UInt64 = 1_772_493_000

    private func database(in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("db.sqlite")
        try FileManager.default.copyItem(atPath: try DemoDatabase.path(), toPath: path)
        return path
    }

    private func message(timestamp: UInt64?, incrementality: TransitRealtime_FeedHeader.Incrementality = .fullDataset,
                         _ entities: [TransitRealtime_FeedEntity]) -> TransitRealtime_FeedMessage {
        TransitRealtime_FeedMessage.with { message in
            message.header = .with {
                $0.gtfsRealtimeVersion = "2.0"
                $0.incrementality = incrementality
                if let timestamp { $0.timestamp = timestamp }
            }
            message.entity = entities
        }
    }

    private func tripUpdate(_ id: String, tripID: String, startDate: String? = nil, sequence: UInt32 = 2,
                            relationship: TransitRealtime_TripDescriptor.ScheduleRelationship? = nil) -> TransitRealtime_FeedEntity {
        .with { entity in
            entity.id = id
            entity.tripUpdate = .with { update in
                update.trip = .with {
                    $0.tripID = tripID
                    if let startDate { $0.startDate = startDate }
                    if let relationship { $0.scheduleRelationship = relationship }
                }
                update.stopTimeUpdate = [.with { $0.stopSequence = sequence; $0.departure = .with { $0.delay = 240 } }]
            }
        }
    }

    private func write(_ message: TransitRealtime_FeedMessage, to directory: TemporaryDirectory, as name: String) throws -> String {
        try directory.write(name, bytes: try message.serializedBytes())
    }

    private func summary(_ run: CommandRun) throws -> [String: Any] {
        XCTAssertEqual(run.status, 0, run.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
    }

    private func sqlite(_ database: String, _ sql: String) throws -> String {
        try CommandRun.run("/usr/bin/env", ["sqlite3", database, sql]).stdout
    }

    func testTripUpdatesAreMatchedToTheirRunsByRuleOne() throws {
        let directory = TemporaryDirectory()
        let db = try database(in: directory)
        let file = try write(message(timestamp: tuesdayJustAfterMidnight, [
            tripUpdate("a", tripID: "T1", startDate: "20260302"),
            // T3 runs 23:50 → 25:30 on weekdays: just after midnight on Tuesday, Monday's run is nearer.
            tripUpdate("b", tripID: "T3"),
            tripUpdate("c", tripID: "NOPE"),
            // T5 runs only on 2026-12-24: not on Monday or Tuesday.
            tripUpdate("d", tripID: "T5"),
            tripUpdate("e", tripID: "EXTRA-1", startDate: "20260303", relationship: .new),
            // T6 has no stop_sequence 99: that update is ignored and counted.
            tripUpdate("f", tripID: "T6", startDate: "20260302", sequence: 99),
        ]), to: directory, as: "updates.pb")
        let result = try summary(try CommandRun.transit(["realtime", file, "--format", "json", "--db", db]))
        XCTAssertEqual(result["trip_updates"] as? Int, 6)
        XCTAssertEqual(result["matched"] as? Int, 3)
        XCTAssertEqual(result["stop_time_updates_unmatched"] as? Int, 1)
        XCTAssertEqual(result["added"] as? Int, 1)
        XCTAssertEqual(result["unmatched"] as? Int, 2)
        XCTAssertEqual(result["unmatched_examples"] as? [String], ["NOPE", "T5 (does not run on 2026-03-02 or 2026-03-03)"])
        XCTAssertEqual(result["timestamp"] as? String, "2026-03-02T23:10:00+00:00")
        XCTAssertEqual(result["feed"] as? String, "lindenau")
        XCTAssertEqual(try sqlite(db, "SELECT entity_id, service_date, trip IS NOT NULL FROM realtime_trip_updates ORDER BY entity_id"),
                       "a|20260302|1\nb|20260302|1\nc||0\nd||0\ne|20260303|0\nf|20260302|1\n")
        XCTAssertEqual(try sqlite(db, "SELECT stop_sequence, departure_delay FROM realtime_stop_time_updates LIMIT 1"), "2|240\n")
        // A message a day later: T3's nearest run is then Tuesday's.
        let later = try write(message(timestamp: tuesdayJustAfterMidnight + 86_400, [tripUpdate("b", tripID: "T3")]), to: directory, as: "later.pb")
        _ = try summary(try CommandRun.transit(["realtime", later, "--format", "json", "--db", db]))
        XCTAssertEqual(try sqlite(db, "SELECT entity_id, service_date FROM realtime_trip_updates"), "b|20260303\n", "each read replaces the feed's realtime data")
    }

    func testTheNewYorkSubwayMessagesAreReadWhole() throws {
        let shared = (Paths.projectRoot as NSString).deletingLastPathComponent + "/shared/realtime/"
        guard FileManager.default.fileExists(atPath: shared + "a_division.nyct.gtfsrt") else {
            throw XCTSkip("../shared/realtime is absent: the New York subway realtime test is skipped")
        }
        let directory = TemporaryDirectory()
        let db = try database(in: directory)
        let files = [shared + "a_division.nyct.gtfsrt", shared + "2_delay.nyct.gtfsrt"]
        let result = try summary(try CommandRun.transit(["realtime"] + files + ["--format", "json", "--db", db]))
        // The README's counts: 285 + 208 trip updates, 174 + 136 vehicles, 1 + 1 alerts.
        XCTAssertEqual(result["trip_updates"] as? Int, 493)
        XCTAssertEqual(result["vehicles"] as? Int, 310)
        XCTAssertEqual(result["alerts"] as? Int, 2)
        XCTAssertEqual(result["matched"] as? Int, 0, "the demo feed has none of the subway's trips")
        XCTAssertEqual(result["unmatched"] as? Int, 493)
        XCTAssertEqual((result["unmatched_examples"] as? [String])?.count, 5)
        XCTAssertEqual(result["timestamp"] as? String, "2021-11-26T20:56:25+00:00", "the older of the two headers")
        XCTAssertEqual((result["sources"] as? [[String: Any]])?.map { $0["trip_updates"] as? Int }, [285, 208])
        XCTAssertEqual(try sqlite(db, "SELECT COUNT(*) FROM realtime_stop_time_updates"), "10218\n", "6,109 + 4,109 stop time updates")
        XCTAssertEqual(try sqlite(db, "SELECT COUNT(*) FROM realtime_vehicles WHERE lat IS NULL"), "310\n", "the subway sends no positions")
        let table = try CommandRun.transit(["realtime", files[0], "--db", db])
        XCTAssertTrue(table.stdout.hasPrefix("Realtime for lindenau, 2021-11-26T20:56:25+00:00 ("), table.stdout)
        XCTAssertTrue(table.stdout.contains("285 trip updates (0 matched, 285 unmatched), 174 vehicles, 1 alert\n  unmatched trips"), table.stdout)
    }

    func testBrokenInputsAreOneLineAndKeepTheStoredData() throws {
        let directory = TemporaryDirectory()
        let db = try database(in: directory)
        let good = try write(message(timestamp: tuesdayJustAfterMidnight, [tripUpdate("a", tripID: "T1", startDate: "20260302")]), to: directory, as: "good.pb")
        XCTAssertEqual(try CommandRun.transit(["realtime", good, "--db", db]).status, 0)
        let stored = try XCTUnwrap(databaseFingerprint(db))
        let bytes = try message(timestamp: tuesdayJustAfterMidnight, [tripUpdate("a", tripID: "T1")]).serializedBytes() as [UInt8]
        let cases: [(String, [UInt8]?, String)] = [
            ("missing.pb", nil, "missing.pb: cannot be read: No such file or directory"),
            ("empty.pb", [], "empty.pb: is empty: no GTFS-Realtime message in it"),
            ("truncated.pb", Array(bytes.dropLast(3)), "truncated.pb: is truncated: the message ends inside a field"),
            ("page.html", Array("<html><body>502 Bad Gateway</body></html>".utf8), "page.html: is not a GTFS-Realtime FeedMessage"),
            ("headless.pb", try TransitRealtime_FeedMessage.with { $0.entity = [tripUpdate("a", tripID: "T1")] }.serializedBytes(),
             "headless.pb: is not a GTFS-Realtime FeedMessage: it has no FeedHeader"),
            ("differential.pb", try message(timestamp: 1, incrementality: .differential, []).serializedBytes(),
             "differential.pb: is a DIFFERENTIAL message: transit reads FULL_DATASET messages only"),
        ]
        for (name, contents, expected) in cases {
            let path = contents.map { try? directory.write(name, bytes: $0) } ?? directory.file(name)
            let run = try CommandRun.transit(["realtime", good, try XCTUnwrap(path), "--db", db])
            XCTAssertEqual(run.status, 1, name)
            XCTAssertTrue(run.stderr.hasPrefix("Error: " + directory.file(expected)), "\(name): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            XCTAssertEqual(databaseFingerprint(db), stored, "\(name): the stored realtime data is unchanged")
        }
    }

    func testSeveralFeedsNeedTheFeedNamed() throws {
        let directory = TemporaryDirectory()
        let db = try database(in: directory)
        XCTAssertEqual(try CommandRun.transit(["import", try FeedFixture().write(to: directory, as: "other"), "--db", db, "--quiet"]).status, 0)
        let file = try write(message(timestamp: tuesdayJustAfterMidnight, [tripUpdate("a", tripID: "T1", startDate: "20260302")]), to: directory, as: "u.pb")
        let unnamed = try CommandRun.transit(["realtime", file, "--db", db])
        XCTAssertEqual(unnamed.status, 64, "the command line must say which feed")
        XCTAssertTrue(unnamed.stderr.contains("the database holds several feeds (lindenau, other): say which one the realtime data belongs to with --feed NAME"), unnamed.stderr)
        let named = try summary(try CommandRun.transit(["realtime", file, "--feed", "lindenau", "--format", "json", "--db", db]))
        XCTAssertEqual(named["matched"] as? Int, 1)
        let other = try summary(try CommandRun.transit(["realtime", file, "--feed", "other", "--format", "json", "--db", db]))
        XCTAssertEqual(other["unmatched"] as? Int, 1, "the other feed has no trip T1")
        XCTAssertEqual(try sqlite(db, "SELECT COUNT(*) FROM realtime_trip_updates"), "2\n", "each feed keeps its own realtime data")
        XCTAssertEqual(try CommandRun.transit(["feeds", "remove", "other", "--db", db]).status, 0)
        XCTAssertEqual(try sqlite(db, "SELECT COUNT(*) FROM realtime_trip_updates"), "1\n", "a removed feed's realtime data goes with it")
        let unknown = try CommandRun.transit(["realtime", file, "--feed", "nope", "--db", db])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(unknown.stderr, "Error: no feed is named 'nope'; the feeds are lindenau\n")
    }

    func testVehiclesNearAPointOfARouteOrATrip() throws {
        let directory = TemporaryDirectory()
        let db = try database(in: directory)
        func vehicle(_ id: String, tripID: String?, routeID: String?, position: (Float, Float)?, stopID: String?) -> TransitRealtime_FeedEntity {
            .with { entity in
                entity.id = "v-" + id
                entity.vehicle = .with { vehicle in
                    vehicle.vehicle = .with { $0.id = id; $0.label = "Bus " + id }
                    if tripID != nil || routeID != nil {
                        vehicle.trip = .with {
                            if let tripID { $0.tripID = tripID }
                            if let routeID { $0.routeID = routeID }
                        }
                    }
                    if let position { vehicle.position = .with { $0.latitude = position.0; $0.longitude = position.1; $0.bearing = 90 } }
                    if let stopID { vehicle.stopID = stopID; vehicle.currentStatus = .stoppedAt }
                    vehicle.timestamp = tuesdayJustAfterMidnight - 20
                }
            }
        }
        let file = try write(message(timestamp: tuesdayJustAfterMidnight, [
            vehicle("V1", tripID: "T1", routeID: nil, position: (52.5252, 13.3690), stopID: nil),
            vehicle("V2", tripID: "T6", routeID: nil, position: nil, stopID: "GOR"),
            vehicle("V3", tripID: nil, routeID: "N2", position: (52.4993, 13.4280), stopID: nil),
        ]), to: directory, as: "vehicles.pb")
        XCTAssertEqual(try summary(try CommandRun.transit(["realtime", file, "--format", "json", "--db", db]))["vehicles"] as? Int, 3)
        func ids(_ arguments: [String]) throws -> [String] {
            let run = try CommandRun.transit(["vehicles"] + arguments + ["--at", "2026-03-03 00:15", "--format", "json", "--db", db])
            XCTAssertEqual(run.status, 0, run.stderr)
            let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stdout)
            return rows.map { ($0["vehicle_id"] as? String ?? "?") + ($0["distance_m"] is NSNull ? "" : " \(Int(($0["distance_m"] as? Double ?? -1).rounded()))m") }
        }
        XCTAssertEqual(try ids([]), ["V1", "V2", "V3"], "by route_id (none first), then vehicle id")
        XCTAssertEqual(try ids(["--near", "52.525,13.369", "--radius", "500"]), ["V1 22m"])
        XCTAssertEqual(try ids(["--route", "R1"]), ["V1", "V2"], "T1 and T6 are trips of R1")
        XCTAssertEqual(try ids(["--trip", "T6"]), ["V2"])
        let stale = try CommandRun.transit(["vehicles", "--at", "2026-03-03 02:00", "--db", db])
        XCTAssertEqual(stale.stdout, "No vehicle positions\n")
        XCTAssertTrue(stale.stderr.contains("vehicle positions of lindenau are stale"), stale.stderr)
        let map = try CommandRun.transit(["vehicles", "--at", "2026-03-03 00:15", "--format", "geojson", "--db", db])
        let features = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(map.stdout.utf8)) as? [String: Any])?["features"] as? [[String: Any]])
        XCTAssertEqual(features.count, 2, "V2 has no position")
        let table = try CommandRun.transit(["vehicles", "--trip", "T6", "--at", "2026-03-03 00:15", "--db", db])
        XCTAssertTrue(table.stdout.contains("Bus V2") && table.stdout.contains("stopped at") && table.stdout.contains("GOR"), table.stdout)
        XCTAssertEqual(try CommandRun.transit(["vehicles", "--near", "52.5,13.4", "--route", "R1", "--db", db]).status, 64)
    }

    func testAlertsActiveAtATimeConcerningAStopOrARoute() throws {
        let directory = TemporaryDirectory()
        let db = try database(in: directory)
        func alert(_ id: String, _ texts: [(String, String?)], effect: TransitRealtime_Alert.Effect? = nil, period: (UInt64?, UInt64?)? = nil,
                   _ entities: [TransitRealtime_EntitySelector]) -> TransitRealtime_FeedEntity {
            .with { entity in
                entity.id = id
                entity.alert = .with { alert in
                    alert.headerText = .with { $0.translation = texts.map { text in .with { $0.text = text.0; if let language = text.1 { $0.language = language } } } }
                    if let effect { alert.effect = effect }
                    if let period {
                        alert.activePeriod = [.with { if let start = period.0 { $0.start = start }; if let end = period.1 { $0.end = end } }]
                    }
                    alert.informedEntity = entities
                }
            }
        }
        let now = tuesdayJustAfterMidnight
        let file = try write(message(timestamp: now, [
            alert("A1", [("Lift out of order", "en"), ("Aufzug defekt", "de")], period: (now - 3600, now + 3600), [.with { $0.stopID = "HBF" }]),
            alert("A2", [("Detour", nil)], effect: .detour, period: (now - 7200, now - 3600), [.with { $0.routeID = "R1" }]),
            alert("A3", [("Rail works", nil)], effect: .reducedService, [.with { $0.routeType = 2 }]),
            alert("A4", [("Night line changes", nil)], [.with { $0.agencyID = "LVB"; $0.routeID = "N2" }]),
        ]), to: directory, as: "alerts.pb")
        XCTAssertEqual(try summary(try CommandRun.transit(["realtime", file, "--format", "json", "--db", db]))["alerts"] as? Int, 4)
        func headers(_ arguments: [String]) throws -> [String] {
            let run = try CommandRun.transit(["alerts"] + arguments + ["--at", "2026-03-03 00:10", "--format", "json", "--db", db])
            XCTAssertEqual(run.status, 0, run.stderr)
            let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stdout)
            return rows.map { "\($0["alert_id"]!): \($0["header"] as? String ?? "-")" }
        }
        XCTAssertEqual(try headers([]), ["A1: Aufzug defekt", "A3: Rail works", "A4: Night line changes"],
                       "A2's period is over; the feed's language (de) is chosen")
        XCTAssertEqual(try headers(["--lang", "en"]), ["A1: Lift out of order", "A3: Rail works", "A4: Night line changes"])
        XCTAssertEqual(try headers(["--stop", "HBF_1"]), ["A1: Aufzug defekt", "A3: Rail works"],
                       "the platform's station, and RING (route type 2) calls there; N2 leaves from HBF_2")
        XCTAssertEqual(try headers(["--route", "N2"]), ["A4: Night line changes"], "its agency and route both match")
        XCTAssertEqual(try headers(["--route", "R1"]), [], "A2 is no longer active")
        let json = try CommandRun.transit(["alerts", "--at", "2026-03-03 00:10", "--format", "json", "--db", db])
        let first = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])?.first)
        XCTAssertEqual(first["entities"] as? [String], ["stop HBF"])
        XCTAssertEqual(first["active_until"] as? String, "2026-03-03T01:10:00+01:00")
        XCTAssertEqual(try CommandRun.transit(["alerts", "--route", "R1", "--stop", "HBF", "--db", db]).status, 64)
        // The departures table lists the alerts touching its departures under it.
        let board = try CommandRun.transit(["departures", "--stop", "HBF", "--at", "2026-03-03 00:10", "--within", "600", "--limit", "1", "--db", db])
        XCTAssertTrue(board.stdout.hasSuffix("\nAlert: Aufzug defekt\nAlert: Rail works\n"), board.stdout)
        let other = try CommandRun.transit(["departures", "--stop", "GOR", "--at", "2026-03-03 00:10", "--within", "600", "--limit", "1", "--db", db])
        XCTAssertFalse(other.stdout.contains("Alert:"), "no alert concerns GOR or route 1 there: \(other.stdout)")
    }

    func testEveryPollsUntilInterrupted() throws {
        let directory = TemporaryDirectory()
        let db = try database(in: directory)
        let file = try write(message(timestamp: tuesdayJustAfterMidnight, [tripUpdate("a", tripID: "T1", startDate: "20260302")]), to: directory, as: "u.pb")
        let child = try ChildProcess(Paths.transitBinary, ["realtime", file, "--every", "1", "--db", db], capture: true)
        Thread.sleep(forTimeInterval: 2.5)
        child.send(SIGINT)
        let (out, _) = child.readOutput(timeout: 20)
        child.wait()
        let rounds = String(decoding: out, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("Realtime for lindenau") }
        XCTAssertGreaterThanOrEqual(rounds.count, 2, "a summary line per round")
        XCTAssertEqual(try sqlite(db, "SELECT COUNT(*) FROM realtime_trip_updates"), "1\n")
    }
}
