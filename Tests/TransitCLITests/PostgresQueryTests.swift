import XCTest
import Foundation
import GTFSRealtime
import SwiftProtobuf
import GTFS
import FetchRequest
import PostgresStore
import TestSupport

/// The query commands on a PostgreSQL hot standby answer byte for byte what they answer from an
/// SQLite file holding the same feeds: the demo feed (Berlin, north-east of Greenwich), Nevada
/// (west, with frequencies) and Cairns (south of the equator), imported into both.
final class PostgresQueryTests: XCTestCase {
    /// A feed and the questions asked of it: a point, two stops, a service date.
    private struct Place {
        let feed: String
        let source: String
        let point: String
        let from: String
        let to: String
        let date: String
        let name: String
        /// A part of a stop's name as a rider types it (no accents, any case).
        let folded: String

        /// Every query command, on this feed's point, stops and date, and on a date outside its service.
        var questions: [[String]] {
            let (lat, lon) = (String(point.split(separator: ",")[0]), String(point.split(separator: ",")[1]))
            let morning = "\(date) 08:00", only = ["--feed", feed]
            return [
                ["nearby", lat, lon, "--radius", "1500"],
                ["search", name],
                ["departures", "--near", point, "--at", morning, "--radius", "800"],
                // A limit that cuts inside a group of departures at one time (Cairns), and none.
                ["departures", "--near", point, "--at", morning, "--radius", "800", "--limit", "12"],
                ["departures", "--near", point, "--at", morning, "--radius", "800", "--limit", "0"],
                ["departures", "--stop", from, "--at", "\(date) 23:30", "--limit", "50"] + only,
                ["departures", "--stop", from, "--at", "2031-01-06 07:00"] + only,
                ["routes"] + only,
                ["routes", "--stop", from] + only,
                ["stats", "--date", date] + only,
                // Departures per hour: grouped by an expression that is also selected and sorted by.
                ["stats", "--stop", from, "--date", date] + only,
                ["plan", from, to, "--at", morning] + only,
                ["plan", from, to, "--arrive-by", "\(date) 12:00"] + only,
                ["plan", point, to, "--at", morning, "--max-walk", "1000"] + only,
                ["reach", from, "--at", morning, "--within", "30"] + only,
                ["list", "stops", "--predicate", "stop_lat > \(lat) AND location_type == 0"] + only,
                ["list", "trips", "--predicate", "route.route_type == 3", "--sort", "trip_id"] + only,
                ["list", "stop_times", "--predicate", "stop.stop_id == \"\(from)\""] + only,
                // An IN list is one array on the server: quotes, backslashes and nil inside it.
                ["list", "stops", "--predicate", "stop_id IN {%@, %@, \"a\\\"b\\\\c\", nil} OR stop_name IN[c] {%@}",
                 "--arg", from, "--arg", to, "--arg", name, "--sort", "stop_id"] + only,
                ["list", "stops", "--predicate", "stop_name ENDSWITH \"a\" OR stop_name LIKE \"*St*\""] + only,
                ["list", "frequencies"] + only,
                // Folded text: [c], [d] and [cd], on names beyond ASCII too (Łódź, Görlitzer).
                ["list", "stops", "--predicate", "stop_name CONTAINS[cd] %@ OR stop_name BEGINSWITH[c] %@ OR stop_name ==[d] %@",
                 "--arg", folded, "--arg", String(folded.prefix(3)).uppercased(), "--arg", name] + only,
                ["list", "routes", "--predicate", "route_long_name LIKE[cd] %@ OR route_short_name ==[c] %@", "--arg", "*\(folded.prefix(2))*", "--arg", "r1"] + only,
                ["list", "trips", "--predicate", "ANY stop_times.stop.stop_name CONTAINS[d] %@", "--arg", folded.prefix(1).uppercased() + folded.dropFirst(), "--sort", "trip_id"] + only,
            ]
        }
    }

    private static let places = [
        Place(feed: "lindenau", source: Paths.demoFeed, point: "52.5249,13.3692", from: "HBF", to: "LODZ", date: "2026-03-02", name: "u gorli", folded: "lodz"),
        Place(feed: "nevada", source: "sample_gtfs.zip", point: "36.9,-116.76", from: "EMSI", to: "BULLFROG", date: "2008-06-03", name: "main st", folded: "ave"),
        Place(feed: "cairns", source: "cairns_gtfs.zip", point: "-16.92,145.77", from: "750245", to: "750195", date: "2014-09-16", name: "cairns central", folded: "cairns"),
    ]

    func testEveryQueryCommandAnswersTheSameFromTheStandbyAsFromTheFile() throws {
        let servers = try PostgresServers()
        let directory = TemporaryDirectory()
        let file = directory.file("feeds.sqlite")
        for place in Self.places {
            let source = place.source.hasSuffix(".zip") ? try PostgresServers.sharedFeed(place.source, for: "the PostgreSQL parity test") : place.source
            try servers.transitImport(source, ["--feed", place.feed, "--quiet"], db: file)
            try servers.transitImport(source, ["--feed", place.feed, "--quiet"], db: servers.primary)
        }
        try servers.waitForStandby()
        var answered = 0
        let questions = Self.places.flatMap(\.questions) + [["trip", "CITY1", "--feed", "nevada"], ["route", "R1"], ["routes"]]
        for question in questions {
            for format in ["json", "table"] {
                let arguments = question + ["--format", format]
                let fromFile = try CommandRun.transit(arguments + ["--db", file])
                let fromStandby = try CommandRun.transit(arguments + ["--db", servers.standby])
                XCTAssertEqual(fromStandby.stdout, fromFile.stdout, "\(arguments): the standby's answer")
                XCTAssertEqual(fromStandby.stderr, fromFile.stderr, "\(arguments): the standby's messages")
                XCTAssertEqual(fromStandby.status, fromFile.status, "\(arguments): \(fromStandby.stderr)")
                if fromFile.status == 0 && fromFile.stdout.count > 200 { answered += 1 }
            }
        }
        // Most questions have a real answer (not an empty list), so the comparison means something.
        XCTAssertGreaterThan(answered, questions.count, "\(answered) answers of more than 200 bytes among \(questions.count * 2)")
        // The server keeps the first rows by departure with those tied (`Query.firstRowsKey`): the
        // limit of 12 in Cairns falls inside a group of departures at one time, where keeping 12
        // rows by departure alone lists another stop's, so the comparison above pins it.
        let cairns = Self.places[2]
        let thirteen = try CommandRun.transit(["departures", "--near", cairns.point, "--at", "\(cairns.date) 08:00", "--radius", "800",
                                               "--limit", "13", "--format", "json", "--db", file])
        let times = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(thirteen.stdout.utf8)) as? [[String: Any]]).compactMap { $0["departure"] as? String }
        XCTAssertEqual(times.count, 13, thirteen.stdout)
        XCTAssertEqual(times.dropFirst(11).first, times.last, "the 12th and 13th departures in Cairns leave at one time")
    }

    func testExplainOnTheServerPrintsItsStatementsAndPlansReadsStopTimesFromTheirIndexAndFlagsAFullScan() throws {
        let servers = try PostgresServers()
        let cairns = try PostgresServers.sharedFeed("cairns_gtfs.zip", for: "the PostgreSQL --explain test")
        try servers.transitImport(cairns, ["--feed", "cairns", "--quiet"], db: servers.primary)
        try servers.waitForStandby()
        let nearby = try CommandRun.transit(["nearby", "-16.92", "145.77", "--explain", "--db", servers.standby])
        XCTAssertEqual(nearby.status, 0, nearby.stderr)
        XCTAssertTrue(nearby.stderr.contains("WHERE \"stops\".\"stop_lon\" BETWEEN $1 AND $2"), nearby.stderr)
        XCTAssertTrue(nearby.stderr.contains("-- arguments: ["), nearby.stderr)
        XCTAssertTrue(nearby.stderr.contains("QUERY PLAN\n`--"), nearby.stderr)
        XCTAssertFalse(nearby.stderr.contains("warning:"), "the stops are read by an index: \(nearby.stderr)")
        // The departures statement reads stop times from their index alone, which carries the
        // table's key as SQLite's does (INCLUDE).
        let departures = try CommandRun.transit(["departures", "--near", "-16.92,145.77", "--at", "2014-09-16 08:00", "--explain", "--db", servers.standby])
        XCTAssertEqual(departures.status, 0, departures.stderr)
        XCTAssertTrue(departures.stderr.contains("Index Only Scan using stop_times_"), departures.stderr)
        // No index serves a stop time's headsign: the 37,790 stop times are read whole.
        let scan = try CommandRun.transit(["list", "stop_times", "--predicate", "stop_headsign == \"nowhere\"", "--explain", "--db", servers.standby])
        XCTAssertEqual(scan.status, 0, scan.stderr)
        XCTAssertTrue(scan.stderr.contains("Seq Scan on stop_times_"), scan.stderr)
        XCTAssertTrue(scan.stderr.contains("warning: the plan reads every row of stop_times_"), scan.stderr)
        // The planner reads its patterns in batches on a server (a round trip each), one at a
        // time from a file; the same journeys either way (the parity test).
        let journey = ["plan", "750245", "750195", "--at", "2014-09-16 08:00", "--explain"]
        let plan = try CommandRun.transit(journey + ["--db", servers.standby])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        let batches = try XCTUnwrap(plan.stderr.firstMatch(of: /pattern reads in batches: ([0-9,]+) patterns? in ([0-9,]+) runs?/), plan.stderr)
        let (patterns, runs) = (Int(batches.1.filter(\.isNumber))!, Int(batches.2.filter(\.isNumber))!)
        XCTAssertGreaterThan(patterns, runs, "several patterns a run: \(batches.0)")
        XCTAssertTrue(plan.stderr.contains("\"id\" = ANY($1)"), plan.stderr)
        XCTAssertFalse(plan.stderr.contains("-- pattern reads: "), "no pattern read alone: \(plan.stderr)")
        let directory = TemporaryDirectory()
        let file = directory.file("cairns.sqlite")
        try servers.transitImport(cairns, ["--feed", "cairns", "--quiet"], db: file)
        let fromFile = try CommandRun.transit(journey + ["--db", file])
        XCTAssertFalse(fromFile.stderr.contains("in batches"), fromFile.stderr)
        XCTAssertTrue(fromFile.stderr.contains("-- pattern reads: \(batches.1) pattern"), fromFile.stderr)
    }

    func testFeedsRemoveAndUpgradeChangeTheServerAsAFile() throws {
        let servers = try PostgresServers()
        try servers.transitImport(Paths.demoFeed, ["--quiet"], db: servers.primary)
        try servers.transitImport(Paths.demoFeed, ["--feed", "second", "--quiet"], db: servers.primary)
        let upgrade = try CommandRun.transit(["feeds", "upgrade", "--db", servers.primary])
        XCTAssertEqual(upgrade.status, 0, upgrade.stderr)
        XCTAssertEqual(upgrade.stdout, "\(servers.primary) is up to date (schema \(Schema.version))\n")
        let onStandby = try CommandRun.transit(["feeds", "remove", "second", "--db", servers.standby])
        XCTAssertEqual(onStandby.status, 1)
        XCTAssertEqual(onStandby.stderr, "Error: \(servers.standby) is a read-only hot standby; point `transit import`, `transit feeds remove|upgrade` and `transit realtime` at the primary server\n")
        let remove = try CommandRun.transit(["feeds", "remove", "second", "--db", servers.primary])
        XCTAssertEqual(remove.status, 0, remove.stderr)
        XCTAssertEqual(remove.stdout, "Removed feed second from \(servers.primary)\n")
        try servers.waitForStandby()
        let feeds = try CommandRun.transit(["feeds", "--db", servers.standby, "--format", "json"])
        let names = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(feeds.stdout.utf8)) as? [[String: Any]], feeds.stderr).compactMap { $0["feed"] as? String }
        XCTAssertEqual(names, ["lindenau"])
        let unknown = try CommandRun.transit(["feeds", "remove", "second", "--db", servers.primary])
        XCTAssertEqual(unknown.status, 64, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("second"), unknown.stderr)
    }
}

/// `transit realtime --db postgres://primary…` stores a message in one transaction; every standby
/// then answers with it as a file holding the same message does.
final class PostgresRealtimeTests: XCTestCase {
    /// 2026-03-02 07:55 in Berlin, a Monday of the demo feed.
    private static let messageTime: UInt64 = 1_772_434_500

    /// A message on the demo feed: T1 late from its first stop with CAFE skipped, Saturday's T4
    /// cancelled, a NEW trip X1, two vehicles and an alert on HBF in two languages (one beyond ASCII).
    static func message(delay: Int32) -> TransitRealtime_FeedMessage {
        func trip(_ tripID: String, date: String = "20260302", _ fill: (inout TransitRealtime_TripUpdate) -> Void) -> TransitRealtime_FeedEntity {
            .with { entity in
                entity.id = "tu-" + tripID
                entity.tripUpdate = .with { update in
                    update.trip = .with { $0.tripID = tripID; $0.startDate = date }
                    fill(&update)
                }
            }
        }
        func stop(_ stopID: String, at time: Int64) -> TransitRealtime_TripUpdate.StopTimeUpdate {
            .with { update in update.stopID = stopID; update.departure = .with { $0.time = time } }
        }
        return .with { message in
            message.header = .with { $0.gtfsRealtimeVersion = "2.0"; $0.timestamp = messageTime }
            message.entity = [
                trip("T1") { $0.stopTimeUpdate = [.with { $0.stopSequence = 1; $0.departure = .with { $0.delay = delay } },
                                                  .with { $0.stopSequence = 3; $0.scheduleRelationship = .skipped }] },
                trip("T4", date: "20260307") { $0.trip.scheduleRelationship = .canceled },
                trip("X1") { update in
                    update.trip.routeID = "R1"
                    update.trip.scheduleRelationship = .new
                    update.stopTimeUpdate = [stop("HBF_1", at: 1_772_436_000), stop("GOR", at: 1_772_436_480), stop("ZOO", at: 1_772_437_800)]
                },
                .with { entity in
                    entity.id = "v1"
                    entity.vehicle = .with { vehicle in
                        vehicle.vehicle = .with { $0.id = "bus 17"; $0.label = "17" }
                        vehicle.trip = .with { $0.tripID = "T1"; $0.startDate = "20260302" }
                        vehicle.position = .with { $0.latitude = 52.5251; $0.longitude = 13.3695; $0.bearing = 90 }
                        vehicle.timestamp = messageTime
                    }
                },
                .with { entity in
                    entity.id = "v2"
                    entity.vehicle = .with { vehicle in
                        vehicle.trip = .with { $0.routeID = "R1" }
                        vehicle.currentStatus = .stoppedAt
                        vehicle.stopID = "GOR"
                        vehicle.timestamp = messageTime
                    }
                },
                .with { entity in
                    entity.id = "a1"
                    entity.alert = .with { alert in
                        alert.activePeriod = [.with { $0.start = messageTime - 3600; $0.end = messageTime + 7200 }, .with { $0.start = messageTime + 86_400 }]
                        alert.informedEntity = [.with { $0.stopID = "HBF" }, .with { $0.routeID = "R1" }]
                        alert.effect = .detour
                        alert.headerText = .with { $0.translation = [.with { $0.text = "Lift out of order"; $0.language = "en" },
                                                                    .with { $0.text = "Aufzug gestört"; $0.language = "de" }] }
                    }
                },
            ]
        }
    }

    /// The questions realtime changes, at the message's time.
    private static let questions: [[String]] = [
        ["departures", "--stop", "GOR", "--at", "2026-03-02 08:05", "--within", "30"],
        ["departures", "--stop", "HBF", "--at", "2026-03-02 08:00", "--within", "60"],
        ["departures", "--near", "52.5249,13.3692", "--at", "2026-03-02 08:00", "--radius", "2500"],
        ["departures", "--stop", "HBF", "--at", "2026-03-07 09:30", "--within", "60"],
        ["trip", "T1", "--date", "2026-03-02"],
        ["vehicles", "--at", "2026-03-02 08:00"],
        ["alerts", "--at", "2026-03-02 08:00"],
        ["plan", "HBF", "ZOO", "--at", "2026-03-02 08:00"],
        ["list", "realtime_alert_periods"],
        ["list", "realtime_trip_updates", "--predicate", "trip != nil", "--sort", "entity_id"],
        // Text written in place on the server, folded as on a file.
        ["list", "realtime_alert_texts", "--predicate", "text CONTAINS[cd] %@ OR text BEGINSWITH[c] %@", "--arg", "gestort", "--arg", "lift"],
    ]

    /// Each question, as JSON and as a table, on `db`.
    private func answers(_ db: String) throws -> [String] {
        try Self.questions.flatMap { question in
            try ["json", "table"].map { format in
                let run = try CommandRun.transit(question + ["--format", format, "--db", db])
                return "\(question) \(format) exit \(run.status)\n\(run.stdout)\(run.stderr)"
            }
        }
    }

    func testRealtimeStoredOnThePrimaryIsAnsweredByTheStandbyAsByAFile() throws {
        let (servers, directory, file) = try demoFeedInAFileAndOnTheServers()
        let late = try directory.write("late.pb", bytes: try Self.message(delay: 300).serializedBytes())
        let fileRead = try CommandRun.transit(["realtime", late, "--db", file])
        let serverRead = try CommandRun.transit(["realtime", late, "--db", servers.primary])
        XCTAssertEqual(serverRead.status, 0, serverRead.stderr)
        XCTAssertEqual(serverRead.stdout, fileRead.stdout)
        XCTAssertTrue(serverRead.stdout.contains("3 trip updates (2 matched, 1 new trips, 0 unmatched), 2 vehicles, 1 alert"), serverRead.stdout)
        try servers.waitForStandby()
        let fromFile = try answers(file)
        XCTAssertEqual(try answers(servers.standby), fromFile)
        // The questions see the realtime data (the timetable's answers differ).
        let realtime = try CommandRun.transit(Self.questions[0] + ["--format", "json", "--db", file])
        let timetable = try CommandRun.transit(Self.questions[0] + ["--no-realtime", "--format", "json", "--db", file])
        XCTAssertNotEqual(realtime.stdout, timetable.stdout)
        XCTAssertTrue(fromFile[12].contains("Aufzug gestört"), "the alert, in the feed's language: \(fromFile[12])")
        XCTAssertTrue(fromFile[20].contains("Aufzug gestört") && fromFile[20].contains("Lift out of order"), "folded: \(fromFile[20])")

        // A new message replaces the old one whole, on the primary and then on the standby.
        let later = try directory.write("later.pb", bytes: try Self.message(delay: 900).serializedBytes())
        for db in [file, servers.primary] {
            let read = try CommandRun.transit(["realtime", later, "--db", db, "--format", "json"])
            XCTAssertEqual(read.status, 0, read.stderr)
        }
        try servers.waitForStandby()
        let replaced = try answers(file)
        XCTAssertNotEqual(replaced, fromFile)
        XCTAssertEqual(try answers(servers.standby), replaced)

        // The standby takes no writes: one line, and its data is unchanged.
        let onStandby = try CommandRun.transit(["realtime", late, "--db", servers.standby])
        XCTAssertEqual(onStandby.status, 1)
        XCTAssertEqual(onStandby.stderr, "Error: \(servers.standby) is a read-only hot standby; point `transit import`, `transit feeds remove|upgrade` and `transit realtime` at the primary server\n")
        XCTAssertEqual(try answers(servers.standby), replaced)
    }

    func testRealtimeSurvivesAReimportOfAnotherFeedAndIsRefusedWhereNoFeedIs() throws {
        let servers = try PostgresServers()
        let directory = TemporaryDirectory()
        let message = try directory.write("late.pb", bytes: try Self.message(delay: 300).serializedBytes())
        let empty = try CommandRun.transit(["realtime", message, "--db", servers.primary])
        XCTAssertEqual(empty.status, 1)
        XCTAssertEqual(empty.stderr.filter { $0 == "\n" }.count, 1, empty.stderr)
        XCTAssertTrue(empty.stderr.contains("holds no feeds yet: import one with `transit import FEED --db"), empty.stderr)
        try servers.transitImport(Paths.demoFeed, ["--quiet"], db: servers.primary)
        XCTAssertEqual(try CommandRun.transit(["realtime", message, "--db", servers.primary]).status, 0)
        let before = try CommandRun.transit(["vehicles", "--at", "2026-03-02 08:00", "--format", "json", "--db", servers.primary])
        XCTAssertTrue(before.stdout.contains("bus 17"), before.stdout + before.stderr)
        // The import reads the server's feeds back, realtime rows included, and stores them again.
        try servers.transitImport(Paths.demoFeed, ["--feed", "second", "--quiet"], db: servers.primary)
        let after = try CommandRun.transit(["vehicles", "--at", "2026-03-02 08:00", "--format", "json", "--feed", "lindenau", "--db", servers.primary])
        XCTAssertEqual(after.stdout, before.stdout)
        let which = try CommandRun.transit(["realtime", message, "--db", servers.primary])
        XCTAssertEqual(which.status, 64, which.stderr)
        XCTAssertTrue(which.stderr.contains("say which one the realtime data belongs to with --feed NAME"), which.stderr)
    }
}

/// `transit serve --db postgres://standby…`: the API answers as it does from a file, keeps
/// answering while the primary imports, and answers the new feeds, and the realtime data the
/// primary stores, once the standby has them.
final class PostgresServeTests: XCTestCase {
    private static let targets = [
        "/api/nearby?lat=52.5249&lon=13.3692&radius=2500",
        "/api/departures?near=52.5249,13.3692&at=2026-03-02%2008:00",
        "/api/departures?stop=HBF&at=2031-01-06%2008:00",
        "/api/search?text=u%20gorli",
        "/api/trip/T1",
        "/api/routes",
        "/api/route/R1",
        "/api/plan?from=HBF&to=LODZ&at=2026-03-02%2008:00",
        "/api/reach?from=HBF&at=2026-03-02%2008:00&within=60",
        "/api/list/stops?predicate=location_type%20==%200",
        "/api/nearby?lat=0&lon=200",
    ]

    func testTheServerOnTheStandbyAnswersAsOnTheFileAndFollowsTheImportsOfThePrimary() throws {
        let (servers, directory, file) = try demoFeedInAFileAndOnTheServers()
        defer { withExtendedLifetime(directory) {} }
        let onFile = try RunningServer(database: file)
        let onStandby = try RunningServer(database: servers.standby)
        defer { _ = onFile.stop(); _ = onStandby.stop() }
        XCTAssertTrue(onStandby.stderr.hasPrefix("transit serve: \(servers.standby) on http://"), onStandby.stderr)
        // explain=1 shows the statements as the server ran them, and its plans.
        let explained = try onStandby.request("/api/nearby?lat=52.5249&lon=13.3692&explain=1")
        XCTAssertEqual(explained.status, 200, explained.text)
        XCTAssertTrue(explained.text.contains(#""stop_lon\" BETWEEN $1 AND $2"#), explained.text)
        XCTAssertTrue(explained.text.contains("Scan"), explained.text)
        for target in Self.targets {
            let (expected, answer) = (try onFile.request(target), try onStandby.request(target))
            XCTAssertEqual(answer.status, expected.status, "\(target): \(answer.text)")
            XCTAssertEqual(answer.text, expected.text, target)
        }
        // A second feed, imported on the primary while the server answers: every request is
        // answered, and the feed is listed once the standby has replayed it.
        try servers.transitImport(Paths.demoFeed, ["--feed", "second", "--quiet"], db: servers.primary)
        var listed = false
        for _ in 0..<3000 where !listed {
            let feeds = try onStandby.request("/api/feeds")
            XCTAssertEqual(feeds.status, 200, feeds.text)
            listed = feeds.text.contains("\"feed\": \"second\"")
            if !listed { usleep(10_000) }
        }
        XCTAssertTrue(listed, "the server answers the primary's new feed")
        let second = try onStandby.request("/api/nearby?lat=52.5249&lon=13.3692&feed=second")
        XCTAssertTrue(second.text.contains("\"feed\": \"second\""), second.text)
    }

    func testWhenThePrimaryStopsTheServerOnTheStandbyKeepsAnsweringAndChangesFailWithOneLine() throws {
        let servers = try PostgresServers()
        guard let primarySwitch = ProcessInfo.processInfo.environment["TRANSIT_TEST_POSTGRES_PRIMARY"] else {
            return XCTFail("TRANSIT_TEST_POSTGRES_PRIMARY is not set: run the tests through scripts/with-postgres.sh")
        }
        try servers.transitImport(Paths.demoFeed, ["--quiet"], db: servers.primary)
        try servers.waitForStandby()
        let server = try RunningServer(database: servers.standby)
        defer { _ = server.stop() }
        let answers = try Self.targets.map { try server.request($0) }
        XCTAssertEqual(try CommandRun.run(primarySwitch, ["stop"]).status, 0, "the primary stops")
        var primaryStopped = true
        defer { if primaryStopped { _ = try? CommandRun.run(primarySwitch, ["start"]) } }
        for (target, answer) in zip(Self.targets, answers) {
            let again = try server.request(target)
            XCTAssertEqual(again.status, answer.status, "\(target): \(again.text)")
            XCTAssertEqual(again.text, answer.text, "\(target) is answered as before, the primary stopped")
        }
        for change in [["import", Paths.demoFeed, "--feed", "other"], ["feeds", "remove", "lindenau"]] {
            let run = try CommandRun.transit(change + ["--db", servers.primary])
            XCTAssertEqual(run.status, 1, "\(change): \(run.stdout)")
            XCTAssertTrue(run.stderr.hasPrefix("Error: \(servers.primary): cannot connect: "), "\(change): \(run.stderr)")
            XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, run.stderr)
        }
        XCTAssertEqual(try CommandRun.run(primarySwitch, ["start"]).status, 0, "the primary starts again")
        primaryStopped = false
        // The standby follows the primary again (its replay reaches the primary's position).
        try servers.waitForStandby()
        XCTAssertEqual(try server.request(Self.targets[0]).text, answers[0].text)
    }

    func testTheServerOnTheStandbyAnswersWithTheRealtimeDataThePrimaryStores() throws {
        let (servers, directory, file) = try demoFeedInAFileAndOnTheServers()
        let onFile = try RunningServer(database: file)
        let onStandby = try RunningServer(database: servers.standby)
        defer { _ = onFile.stop(); _ = onStandby.stop() }
        let targets = ["/api/departures?stop=GOR&at=2026-03-02%2008:05&within=30", "/api/plan?from=HBF&to=ZOO&at=2026-03-02%2008:00",
                       "/api/trip/T1?date=2026-03-02", "/api/vehicles?at=2026-03-02%2008:00", "/api/alerts?at=2026-03-02%2008:00"]
        // Asked once before, so the pooled connections hold what they keep (a journey planner).
        let before = try targets.map { try onStandby.request($0).text }
        let message = try directory.write("late.pb", bytes: try PostgresRealtimeTests.message(delay: 300).serializedBytes())
        for db in [file, servers.primary] { XCTAssertEqual(try CommandRun.transit(["realtime", message, "--db", db]).status, 0) }
        try servers.waitForStandby()
        for (target, old) in zip(targets, before) {
            let expected = try onFile.request(target)
            XCTAssertEqual(expected.status, 200, "\(target): \(expected.text)")
            // What each pooled connection keeps (the journey planner, realtime applied) is made anew.
            if !target.hasPrefix("/api/alerts") { XCTAssertNotEqual(expected.text, old, "the realtime data changes \(target)") }
            // Every connection of the pool, not only the one asked first.
            for _ in 0..<4 { XCTAssertEqual(try onStandby.request(target).text, expected.text, target) }
        }
    }

    func testServingRealtimeFromAServerIsRefusedWithOneLine() throws {
        let servers = try PostgresServers()
        let run = try CommandRun.transit(["serve", "--db", servers.standby, "--realtime", "http://127.0.0.1:9/updates.pb"])
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("Error: --realtime stores what it reads in the database: on a PostgreSQL server store it once for every node with `transit realtime URL"), run.stderr)
        XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, run.stderr)
    }
}

/// The demo feed imported into an SQLite file (in the returned folder) and into the primary, and
/// replayed by the standby: the two stores the tests compare.
func demoFeedInAFileAndOnTheServers() throws -> (servers: PostgresServers, directory: TemporaryDirectory, file: String) {
    let servers = try PostgresServers()
    let directory = TemporaryDirectory()
    let file = directory.file("feeds.sqlite")
    try servers.transitImport(Paths.demoFeed, ["--quiet"], db: file)
    try servers.transitImport(Paths.demoFeed, ["--quiet"], db: servers.primary)
    try servers.waitForStandby()
    return (servers, directory, file)
}

/// A served question's start on a server (`PostgresStore`): the time limit set between questions
/// holds for the next transaction only, and the store's version read with its `BEGIN` is the one
/// a separate read gives.
final class PostgresQuestionStartTests: XCTestCase {
    /// The first column of `sql`'s first row, as text.
    private func text(_ sql: String, on store: PostgresStore) throws -> String {
        let statement = try store.prepare(sql)
        try statement.run([])
        XCTAssertTrue(statement.next(), sql)
        return String(decoding: statement.bytes(0), as: UTF8.self)
    }

    func testALimitSetBetweenQuestionsBindsTheNextTransactionOnlyAndStopsAStatementThatRunsLonger() throws {
        let servers = try PostgresServers()
        try servers.transitImport(Paths.demoFeed, ["--quiet"], db: servers.primary)
        try servers.waitForStandby()
        let store = try PostgresStore(url: servers.standby, mode: .readOnly)
        let separate = try PostgresStore(url: servers.standby, mode: .readOnly)
        try store.limitTime(toMilliseconds: 40)
        try store.execute("BEGIN")
        XCTAssertEqual(try text("SELECT current_setting('statement_timeout')", on: store), "40ms")
        XCTAssertThrowsError(try text("SELECT pg_sleep(5)::text", on: store)) { error in
            XCTAssertTrue((error as? DatabaseError)?.isInterrupt == true, "\(error)")
        }
        try store.execute("ROLLBACK")
        try store.limitTime(toMilliseconds: nil)
        // The second BEGIN reads the version in the same round trip (its statement is prepared now).
        for _ in 0..<2 {
            try store.execute("BEGIN")
            XCTAssertEqual(try text("SELECT current_setting('statement_timeout')", on: store), "0")
            XCTAssertEqual(try store.dataVersion(), try separate.dataVersion())
            try store.execute("COMMIT")
        }
    }
}

/// Which statements PostgreSQL may run on a plan made without their values (`PostgresStore`'s plans).
final class PostgresPlanChoiceTests: XCTestCase {
    /// The count `sql` answers, read on `store`'s connection.
    private func count(_ sql: String, on store: PostgresStore) throws -> Int {
        let statement = try store.prepare(sql)
        try statement.run([])
        XCTAssertTrue(statement.next(), sql)
        return statement.int(0)
    }

    func testOnlyARequestPlannedOnceRunsOnAReusedPlanAndAnyOtherIsPlannedForItsValuesAtEveryRun() throws {
        let servers = try PostgresServers()
        try servers.transitImport(Paths.demoFeed, ["--quiet"], db: servers.primary)
        try servers.waitForStandby()
        let store = try PostgresStore(url: servers.standby, mode: .readOnly)
        try store.execute("BEGIN")
        // The same key lookup, said plainly and marked as planned once; each run seven times (after
        // five runs of a prepared statement PostgreSQL may keep a plan made without the values).
        let lookup = #"SELECT "stops"."stop_name" FROM "stops" WHERE "stops"."stop_id" = ?"#
        // Kept to the end: a statement's last user gone, the server forgets it.
        let statements = try [lookup, SQLGenerator.plannedOnceMarker + lookup].map { try store.prepare($0) }
        for (sql, statement) in zip([lookup, SQLGenerator.plannedOnceMarker + lookup], statements) {
            for stop in ["HBF", "LODZ", "HBF", "LODZ", "HBF", "LODZ", "HBF"] {
                try statement.run([.text(stop)])
                XCTAssertTrue(statement.next(), sql)
            }
        }
        let plans = "SELECT COALESCE(SUM(%@), 0) FROM pg_prepared_statements WHERE statement LIKE '%stop_id%'"
        // The plain one never ran its prepared statement: each run was planned for its values.
        // The marked one ran its prepared statement seven times, on one plan or several.
        XCTAssertEqual(try count(plans.replacingOccurrences(of: "%@", with: "generic_plans + custom_plans")
                                 + " AND statement NOT LIKE '%planned once%'", on: store), 0)
        XCTAssertEqual(try count(plans.replacingOccurrences(of: "%@", with: "generic_plans + custom_plans")
                                 + " AND statement LIKE '%planned once%'", on: store), 7)
        withExtendedLifetime(statements) {}
        try store.execute("COMMIT")
    }
}
