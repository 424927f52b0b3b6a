import XCTest
import Foundation
import TestSupport

final class DeparturesCommandTests: XCTestCase {
    private func departures(_ arguments: [String], db: String? = nil) throws -> CommandRun {
        try CommandRun.transit(["departures"] + arguments + ["--db", try db ?? DemoDatabase.path()])
    }

    private func rows(_ run: CommandRun) throws -> [[String: Any]] {
        XCTAssertEqual(run.status, 0, run.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stdout)
    }

    func testJSONHasTheContractFields() throws {
        let result = try rows(try departures(["--stop", "GOR", "--at", "2026-03-02 23:59:30", "--within", "10", "--format", "json"]))
        XCTAssertEqual(result.count, 1)
        let row = result[0]
        XCTAssertEqual(Set(row.keys), ["feed", "stop_id", "stop_name", "trip_id", "route_id", "route", "headsign", "service_date",
                                       "gtfs_time", "scheduled", "departure", "minutes", "delay_s", "realtime", "cancelled"])
        XCTAssertEqual(row["scheduled"] as? String, "2026-03-03T00:05:00+01:00", "without realtime data, the timetable's moment")
        XCTAssertTrue(row["delay_s"] is NSNull)
        XCTAssertEqual(row["realtime"] as? Bool, false)
        XCTAssertEqual(row["stop_id"] as? String, "GOR")
        XCTAssertEqual(row["feed"] as? String, "lindenau", "named after the demo feed's folder")
        XCTAssertEqual(row["stop_name"] as? String, "U Görlitzer Straße")
        XCTAssertEqual(row["trip_id"] as? String, "T3")
        XCTAssertEqual(row["route_id"] as? String, "N2")
        XCTAssertEqual(row["route"] as? String, "N2")
        XCTAssertEqual(row["headsign"] as? String, "Tierpark")
        XCTAssertEqual(row["service_date"] as? String, "2026-03-02")
        XCTAssertEqual(row["gtfs_time"] as? String, "24:05:00")
        XCTAssertEqual(row["departure"] as? String, "2026-03-03T00:05:00+01:00")
        XCTAssertEqual(row["minutes"] as? Int, 5, "5 minutes 30 seconds, rounded down")
    }

    func testTableShowsTimeMinutesRouteHeadsignStopAndPlatform() throws {
        let run = try departures(["--stop", "HBF", "--at", "2026-03-02 07:55", "--within", "60"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, """
            Time       In  Route  Headsign                Stop          Platform
            08:00   5 min  1      Tierpark                Hauptbahnhof  1
            08:30  35 min  1      Tierpark via Görlitzer  Hauptbahnhof  1

            """)
        let empty = try departures(["--stop", "ZOO", "--at", "2026-03-02 08:35", "--within", "10"])
        XCTAssertEqual(empty.stdout, "No departures from stop ZOO between 08:35 and 08:45 on 2026-03-02\n")
    }

    func testNearUsesBoardingPointsWithinTheRadius() throws {
        let result = try rows(try departures(["--near", "52.5249,13.3692", "--radius", "100", "--at", "2026-03-02 07:55", "--within", "60", "--format", "json"]))
        XCTAssertEqual(result.map { $0["stop_id"] as? String }, ["HBF_1", "HBF_1"])
    }

    func testBadValuesExit64() throws {
        let cases: [([String], String)] = [
            ([], "give --stop ID or --near LAT,LON"),
            (["--stop", "HBF", "--near", "1,2"], "either --stop or --near"),
            (["--near", "91,2"], "--near latitude 91 is outside"),
            (["--near", "1;2"], "--near takes LAT,LON"),
            (["--stop", "HBF", "--at", "tomorrow"], "--at takes"),
            (["--stop", "HBF", "--at", "2026-02-30 08:00"], "is not a date"),
            (["--stop", "HBF", "--at", "2026-03-02 24:00"], "is not a time of day"),
            (["--stop", "HBF", "--within", "-5"], "--within must be 0 to 10080"),
            (["--stop", "HBF", "--radius", "300"], "--radius goes with --near"),
            (["--near", "1,2", "--radius", "0"], "--radius must be above 0"),
            (["--stop", "HBF", "--limit", "-1"], "--limit must be 0"),
            (["--stop", "NOPE"], "no stop has stop_id 'NOPE' or a name like it; find stops by name with `transit search TEXT`"),
            (["--stop", "'; DROP TABLE stops; --"], "no stop has stop_id"),
        ]
        for (arguments, fragment) in cases {
            let run = try departures(arguments)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("Error: ") && run.stderr.contains(fragment), "\(arguments): \(run.stderr)")
            XCTAssertEqual(run.stdout, "")
        }
    }

    func testExplainShowsTheIndexSearch() throws {
        let run = try departures(["--stop", "HBF", "--at", "2026-03-02 07:55", "--explain", "--format", "json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)))
        XCTAssertTrue(run.stderr.contains("SEARCH stop_times USING COVERING INDEX stop_times_1_by_stop_departure (stop=? AND departure>? AND departure<?)"), run.stderr)
        XCTAssertFalse(run.stderr.contains("warning:"), run.stderr)
    }

    func testCairnsByHand() throws {
        guard let feed = Paths.sharedFeed("cairns_gtfs.zip") else {
            throw XCTSkip("../shared/feeds/cairns_gtfs.zip is absent: the Cairns departures test is skipped")
        }
        let db = try DemoDatabase.path(feed: feed)
        // Trip 4166103 runs on Fridays (service Weekday-00-0000100) and leaves The Pier at 24:40:00:
        // on Friday 2014-06-06's service that is Saturday 00:40 in Brisbane (+10:00, no daylight saving).
        let friday = try rows(try departures(["--stop", "750450", "--at", "2014-06-07 00:35", "--within", "10", "--format", "json"], db: db))
        let night = try XCTUnwrap(friday.first { $0["trip_id"] as? String == "CNS2014-CNS_MUL-Weekday-00-4166103" })
        XCTAssertEqual(night["service_date"] as? String, "2014-06-06")
        XCTAssertEqual(night["gtfs_time"] as? String, "24:40:00")
        XCTAssertEqual(night["departure"] as? String, "2014-06-07T00:40:00+10:00")
        XCTAssertEqual(night["headsign"] as? String, "Palm Cove")
        XCTAssertEqual(night["route"] as? String, "110N")
        // Not on a Thursday's service, and not on Friday 2014-12-26 (removed in calendar_dates).
        for at in ["2014-06-06 00:35", "2014-12-27 00:35"] {
            let other = try rows(try departures(["--stop", "750450", "--at", at, "--within", "10", "--format", "json"], db: db))
            XCTAssertFalse(other.contains { $0["trip_id"] as? String == "CNS2014-CNS_MUL-Weekday-00-4166103" }, at)
        }
        // Its stops from 25:00:00 on are pickup_type 1: nobody boards there.
        let dropOffOnly = try rows(try departures(["--stop", "750073", "--at", "2014-06-07 00:55", "--within", "10", "--format", "json"], db: db))
        XCTAssertFalse(dropOffOnly.contains { $0["trip_id"] as? String == "CNS2014-CNS_MUL-Weekday-00-4166103" })
        // Trip 4165937 has no time at 750015 (seq 15) between 06:31 and 06:35: interpolated to 06:33.
        let interpolated = try rows(try departures(["--stop", "750015", "--at", "2014-06-07 06:30", "--within", "5", "--format", "json"], db: db))
        let row = try XCTUnwrap(interpolated.first { $0["trip_id"] as? String == "CNS2014-CNS_MUL-Saturday-00-4165937" })
        XCTAssertEqual(row["gtfs_time"] as? String, "06:33:00")
    }

    func testSampleFeedFrequenciesByHand() throws {
        guard let feed = Paths.sharedFeed("sample_gtfs.zip") else {
            throw XCTSkip("../shared/feeds/sample_gtfs.zip is absent: the frequencies test is skipped")
        }
        let db = try DemoDatabase.path(feed: feed)
        // CITY2 reaches DADAN 7 minutes after leaving EMSI (06:30 -> 06:37); from 08:00 it runs every 600 s.
        let morning = try rows(try departures(["--stop", "DADAN", "--at", "2008-01-07 08:00", "--within", "20", "--format", "json"], db: db))
        XCTAssertEqual(morning.map { "\($0["trip_id"] as? String ?? "") \($0["gtfs_time"] as? String ?? "")" }, ["CITY2 08:07:00", "CITY2 08:17:00"])
        // The last runs from STAGECOACH start at 21:30; 22:00 is the periods' end. CITY2 ends there.
        let evening = try rows(try departures(["--stop", "STAGECOACH", "--at", "2008-01-07 21:20", "--within", "60", "--format", "json"], db: db))
        XCTAssertEqual(evening.map { "\($0["trip_id"] as? String ?? "") \($0["gtfs_time"] as? String ?? "")" }, ["CITY1 21:30:00", "STBA 21:30:00"])
        XCTAssertEqual(evening.first?["headsign"] as? String, "E Main St / S Irving St (Demo)")
    }

    /// Departures by the issue's rules, computed by an independent Python program from the raw feed.
    private func pythonDepartures(feed: String, lat: Double, lon: Double, radius: Double, at: String, within: Int) throws -> [String] {
        let run = try CommandRun.run("/usr/bin/env", ["python3", "-c", """
            import csv, io, math, sys, zipfile, datetime
            from zoneinfo import ZoneInfo
            feed, lat0, lon0, radius, at, within = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5], int(sys.argv[6])
            z = zipfile.ZipFile(feed)
            def table(name):
                if name not in z.namelist(): return []
                return list(csv.DictReader(io.StringIO(z.read(name).decode('utf-8-sig'))))
            zone = ZoneInfo(table('agency.txt')[0]['agency_timezone'].strip())
            def dist(a, b, c, d):
                p1, p2 = math.radians(a), math.radians(c)
                x = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(d - b) / 2) ** 2
                return 2 * 6371008.8 * math.asin(math.sqrt(x))
            stops = {s['stop_id']: s for s in table('stops.txt')}
            chosen = {i for i, s in stops.items() if s.get('location_type', '').strip() in ('', '0')
                      and dist(lat0, lon0, float(s['stop_lat']), float(s['stop_lon'])) <= radius}
            cal = {c['service_id']: c for c in table('calendar.txt')}
            exc = {(e['service_id'], e['date']): e['exception_type'] for e in table('calendar_dates.txt')}
            days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
            def runs(service, d):
                key = d.strftime('%Y%m%d')
                if exc.get((service, key)) == '1': return True
                if exc.get((service, key)) == '2': return False
                c = cal.get(service)
                return bool(c) and c[days[d.weekday()]] == '1' and c['start_date'] <= key <= c['end_date']
            trips = {t['trip_id']: t for t in table('trips.txt')}
            def secs(t):
                h, m, s = t.strip().split(':'); return int(h) * 3600 + int(m) * 60 + int(s)
            rows = table('stop_times.txt')
            last = {}
            for r in rows:
                last[r['trip_id']] = max(last.get(r['trip_id'], -1), int(r['stop_sequence']))
            start = datetime.datetime.strptime(at, '%Y-%m-%d %H:%M').replace(tzinfo=zone)
            end = start + datetime.timedelta(minutes=within)
            out = []
            for r in rows:
                if r['stop_id'] not in chosen or r.get('pickup_type', '').strip() == '1': continue
                if int(r['stop_sequence']) == last[r['trip_id']]: continue
                t = (r.get('departure_time') or '').strip() or (r.get('arrival_time') or '').strip()
                if not t: continue
                for back in range(-1, 3):
                    d = start.date() - datetime.timedelta(days=back)
                    if not runs(trips[r['trip_id']]['service_id'], d): continue
                    noon = datetime.datetime(d.year, d.month, d.day, 12, tzinfo=zone)
                    moment = noon - datetime.timedelta(hours=12) + datetime.timedelta(seconds=secs(t))
                    if start <= moment <= end:
                        out.append((moment.timestamp(), r['stop_id'], r['trip_id'], d.isoformat()))
            for m, s, t, d in sorted(out):
                print(s, t, d)
            """, feed, String(lat), String(lon), String(radius), at, String(within)])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout.split(separator: "\n").map(String.init)
    }

    func testVilniusListsExactlyTheDeparturesTheRulesGive() throws {
        guard let feed = Paths.sharedFeed("vilnius.zip") else {
            throw XCTSkip("../shared/feeds/vilnius.zip is absent: the vilnius departures test is skipped")
        }
        let db = try DemoDatabase.path(feed: feed)
        for (at, within) in [("2015-09-08 08:00", 10), ("2015-09-08 23:50", 30)] {
            let result = try rows(try departures(["--near", "54.687,25.28", "--radius", "400", "--at", at, "--within", String(within),
                                                  "--limit", "0", "--format", "json"], db: db))
            let ours = result.map { "\($0["stop_id"] as? String ?? "") \($0["trip_id"] as? String ?? "") \($0["service_date"] as? String ?? "")" }
            let expected = try pythonDepartures(feed: feed, lat: 54.687, lon: 25.28, radius: 400, at: at, within: within)
            XCTAssertFalse(expected.isEmpty, at)
            XCTAssertEqual(ours, expected, at)
        }
    }
}

/// A feed that lists one train under several trip ids (same stop, time, route and headsign):
/// the table shows it once with its count, JSON lists every trip.
final class IdenticalDeparturesTests: XCTestCase {
    private static let folder = TemporaryDirectory()

    func testIdenticalDeparturesAreOneRowInTheTableAndEachInJSON() throws {
        var trips = "route_id,service_id,trip_id,trip_headsign\n"
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for (trip, time) in [("T1", "08:00"), ("T2", "08:00"), ("T3", "08:00"), ("T4", "08:05")] {
            trips += "R,D,\(trip),Harbour\n"
            stopTimes += "\(trip),\(time):00,\(time):00,A,1\n\(trip),08:20:00,08:20:00,B,2\n"
        }
        let feed = FeedFixture(files: [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nX,Twins,https://example.org,Europe/Berlin\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,52.5,13.4\nB,Beta,52.51,13.41\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR,X,9,,3\n",
            "trips.txt": trips,
            "stop_times.txt": stopTimes,
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nD,1,1,1,1,1,1,1,20260101,20261231\n",
        ])
        let db = try DemoDatabase.path(feed: try feed.write(to: Self.folder, as: "twins"))
        let question = ["departures", "--stop", "A", "--at", "2026-03-04 07:55", "--within", "30", "--db", db]
        let table = try CommandRun.transit(question)
        XCTAssertEqual(table.status, 0, table.stderr)
        let rows = table.stdout.split(separator: "\n").filter { $0.contains("Harbour") }
        XCTAssertEqual(rows.count, 2, table.stdout)
        XCTAssertTrue(rows[0].contains("08:00") && rows[0].contains("Harbour (×3)"), table.stdout)
        XCTAssertTrue(rows[1].contains("08:05") && !rows[1].contains("×"), table.stdout)
        let json = try CommandRun.transit(question + ["--format", "json"])
        let listed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(listed.compactMap { $0["trip_id"] as? String }.sorted(), ["T1", "T2", "T3", "T4"])
    }
}
