import XCTest
import Foundation
import GTFSRealtime
import SwiftProtobuf
import TestSupport

/// `transit list` over the realtime tables: what `transit realtime` stored, picked by predicates
/// in the model's terms, and no rows (not an error) before any realtime read.
final class RealtimeListingTests: XCTestCase {
    /// 2026-03-03 00:10 in Berlin (UTC+1).
    private let timestamp: UInt64 = 1_772_493_000
    /// 2026-03-02 00:00 in Berlin: noon minus 12 hours of the service date 2026-03-02, from which
    /// the demo feed's GTFS times count.
    private let mondayBase = 1_772_406_000
    /// The realtime tables, as `transit list` names them.
    private let tables = ["realtime_sources", "realtime_feeds", "realtime_trip_updates", "realtime_stop_time_updates", "realtime_stop_times",
                          "realtime_added_departures", "realtime_vehicles", "realtime_alerts", "realtime_alert_texts",
                          "realtime_alert_periods", "realtime_alert_entities"]

    private func database(in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("db.sqlite")
        try FileManager.default.copyItem(atPath: try DemoDatabase.path(), toPath: path)
        return path
    }

    /// Trip updates of T1 (route R1, 4 minutes late from stop_sequence 2) and T6 (route R1,
    /// cancelled) and T3 (route N2, 2 minutes late at its stop 2); three vehicles; two alerts.
    private var entities: [TransitRealtime_FeedEntity] {
        func tripUpdate(_ id: String, _ tripID: String, sequence: UInt32?, delay: Int32, canceled: Bool = false) -> TransitRealtime_FeedEntity {
            .with { entity in
                entity.id = id
                entity.tripUpdate = .with { update in
                    update.trip = .with {
                        $0.tripID = tripID
                        $0.startDate = "20260302"
                        if canceled { $0.scheduleRelationship = .canceled }
                    }
                    if let sequence { update.stopTimeUpdate = [.with { $0.stopSequence = sequence; $0.departure = .with { $0.delay = delay } }] }
                }
            }
        }
        func vehicle(_ id: String, tripID: String?, routeID: String?, status: TransitRealtime_VehiclePosition.VehicleStopStatus?) -> TransitRealtime_FeedEntity {
            .with { entity in
                entity.id = "v-" + id
                entity.vehicle = .with { vehicle in
                    vehicle.vehicle = .with { $0.id = id }
                    vehicle.trip = .with {
                        if let tripID { $0.tripID = tripID }
                        if let routeID { $0.routeID = routeID }
                    }
                    if let status { vehicle.currentStatus = status; vehicle.stopID = "GOR" }
                    vehicle.timestamp = timestamp
                }
            }
        }
        func alert(_ id: String, _ texts: [(String, String)], _ entity: TransitRealtime_EntitySelector) -> TransitRealtime_FeedEntity {
            .with {
                $0.id = id
                $0.alert = .with { alert in
                    alert.headerText = .with { $0.translation = texts.map { text in .with { $0.text = text.0; $0.language = text.1 } } }
                    alert.informedEntity = [entity]
                }
            }
        }
        return [
            tripUpdate("a", "T1", sequence: 2, delay: 240), tripUpdate("b", "T6", sequence: nil, delay: 0, canceled: true),
            tripUpdate("c", "T3", sequence: 2, delay: 120),
            vehicle("V1", tripID: "T1", routeID: nil, status: nil), vehicle("V2", tripID: "T6", routeID: nil, status: .stoppedAt),
            vehicle("V3", tripID: nil, routeID: "N2", status: .inTransitTo),
            alert("A1", [("Lift out of order", "en"), ("Aufzug defekt", "de")], .with { $0.stopID = "HBF" }),
            alert("A2", [("Detour", "en")], .with { $0.routeID = "R1" }),
        ]
    }

    /// A copy of the demo database that read `entities`.
    private func databaseWithRealtime(in directory: TemporaryDirectory) throws -> String {
        let db = try database(in: directory)
        try readRealtime(entities, timestamp: timestamp, into: db, in: directory)
        return db
    }

    /// The CSV rows (without the header) `transit list` writes for `arguments`.
    private func rows(_ arguments: [String], db: String) throws -> [String] {
        let run = try CommandRun.transit(["list"] + arguments + ["--db", db])
        XCTAssertEqual(run.status, 0, run.stderr)
        return Array(run.stdout.split(separator: "\r\n", omittingEmptySubsequences: false).dropFirst().filter { !$0.isEmpty }.map(String.init))
    }

    /// The values of `field` of the JSON rows `transit list` writes for `arguments`.
    private func values(_ field: String, _ arguments: [String], db: String) throws -> [String] {
        let run = try CommandRun.transit(["list"] + arguments + ["--format", "json", "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stdout)
        return rows.map { "\($0[field] ?? "?")" }
    }

    func testRealtimeTablesListWhatWasReadPickedByPredicates() throws {
        let directory = TemporaryDirectory()
        let db = try databaseWithRealtime(in: directory)

        let stopped = entities.filter { $0.hasVehicle && $0.vehicle.currentStatus == .stoppedAt }.map(\.id)
        XCTAssertEqual(stopped, ["v-V2"])
        XCTAssertEqual(try values("entity_id", ["realtime_vehicles", "--predicate", "current_status == 'stopped_at'"], db: db), stopped)
        XCTAssertEqual(try values("vehicle_id", ["realtime_vehicles", "--predicate", "trip.route.route_id == %@", "--arg", "R1"], db: db), ["V1", "V2"])

        // The stop times realtime changes on route R1: T1 from stop_sequence 2 on, 4 minutes
        // late; every stop time of the cancelled T6, skipped. GTFS times from stop_times.txt.
        let t1 = [(2, "08:10:00"), (3, "08:20:00"), (4, "08:30:00"), (5, "08:40:00")]
        let t6 = [(1, "08:30:00"), (2, "08:40:00"), (3, "09:00:00")]
        func instant(_ time: String) -> Int {
            let parts = time.split(separator: ":").map { Int($0)! }
            return mondayBase + parts[0] * 3600 + parts[1] * 60 + parts[2]
        }
        let expected = t1.map { "lindenau,\(instant($0.1)),\($0.0),20260302,,240,0" } + t6.map { "lindenau,\(instant($0.1)),\($0.0),20260302,,,1" }
        XCTAssertEqual(try rows(["realtime_stop_times", "--predicate", "trip.route.route_id == %@", "--arg", "R1", "--sort", "trip.trip_id,stop_sequence"], db: db),
                       expected)
        XCTAssertEqual(try rows(["realtime_stop_times"], db: db).count, expected.count + 3, "and T3's stop times 2 to 4, of route N2")

        let updated = entities.filter { $0.hasTripUpdate && !$0.tripUpdate.stopTimeUpdate.isEmpty }.map(\.id)
        XCTAssertEqual(try values("entity_id", ["realtime_trip_updates", "--predicate", "stop_time_updates.@count > 0"], db: db), updated)
        XCTAssertEqual(try values("entity_id", ["realtime_trip_updates", "--predicate", "schedule_relationship == 'canceled'"], db: db), ["b"])

        let aboutR1 = entities.filter { $0.hasAlert && $0.alert.informedEntity.contains { $0.routeID == "R1" } }.map(\.id)
        XCTAssertEqual(aboutR1, ["A2"])
        XCTAssertEqual(try values("entity_id", ["realtime_alerts", "--predicate", "ANY informed_entities.route_id == %@", "--arg", "R1"], db: db), aboutR1)
        XCTAssertEqual(try values("text", ["realtime_alert_texts", "--where", "language=de"], db: db), ["Aufzug defekt"])
    }

    func testADatabaseThatNeverReadRealtimeDataListsNoRows() throws {
        let directory = TemporaryDirectory()
        let db = try database(in: directory)
        for table in tables {
            let csv = try CommandRun.transit(["list", table, "--db", db])
            XCTAssertEqual(csv.status, 0, "\(table): \(csv.stderr)")
            XCTAssertEqual(csv.stderr, "", table)
            XCTAssertTrue(csv.stdout.hasPrefix("feed,") && csv.stdout.hasSuffix("\r\n"), "\(table): \(csv.stdout)")
            XCTAssertEqual(csv.stdout.split(separator: "\r\n").count, 1, "\(table): the header only")
            let json = try CommandRun.transit(["list", table, "--format", "json", "--offset", "1", "--db", db])
            XCTAssertEqual(json.status, 0, "\(table): \(json.stderr)")
            XCTAssertEqual(json.stdout, "[]\n", table)
        }
        let predicate = try CommandRun.transit(["list", "realtime_vehicles", "--predicate", "trip.route.route_id == 'R1'", "--explain", "--db", db])
        XCTAssertEqual(predicate.status, 0, predicate.stderr)
        // An unknown table is a usage error naming the tables there are, the realtime ones too.
        let unknown = try CommandRun.transit(["list", "realtime_nope", "--db", db])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("realtime_vehicles, realtime_alerts"), unknown.stderr)
    }
}
