import XCTest
import Foundation
import FetchRequest
@testable import GTFS
import TestSupport

/// The realtime tables as entities of a feed's model: predicate strings over them compile and
/// answer what the stored rows say, each feed's entities hold its own rows, and the listings and
/// lookups written over them read what was stored.
final class RealtimeModelTests: XCTestCase {
    /// 2026-03-03 00:10 in Berlin (UTC+1): just after midnight on Tuesday.
    private let timestamp = 1_772_493_000

    /// Realtime data for the demo feed (`lindenau`): its trips T1 and T6 run on route R1, T3 on N2.
    private var lindenau: RealtimeDataset {
        typealias D = RealtimeDataset
        var dataset = D()
        dataset.sources = [D.Source(name: "lindenau.pb", timestamp: timestamp)]
        let monday = ServiceDate(yyyymmdd: 20260302)
        dataset.tripUpdates = [
            // T1 is 4 minutes late from stop_sequence 2 on: its stop times 2 to 5 change.
            D.TripUpdate(entityID: "a", trip: D.TripDescriptor(tripID: "T1", startDate: monday),
                         stopTimeUpdates: [D.StopTimeUpdate(stopSequence: 2, departure: D.Event(time: nil, delay: 240))]),
            // T3 (route N2), by stop_id: 2 minutes late at GOR (its stop time 2) and after.
            D.TripUpdate(entityID: "b", trip: D.TripDescriptor(tripID: "T3"),
                         stopTimeUpdates: [D.StopTimeUpdate(stopID: "GOR", departure: D.Event(time: nil, delay: 120))]),
            // A trip the feed does not have, at a stop it does not have either (twice).
            D.TripUpdate(entityID: "c", trip: D.TripDescriptor(tripID: "NOPE"),
                         stopTimeUpdates: [D.StopTimeUpdate(stopID: "NOWHERE", departure: D.Event(time: nil, delay: 60)),
                                           D.StopTimeUpdate(stopID: "GOR", departure: D.Event(time: nil, delay: 60)),
                                           D.StopTimeUpdate(stopID: "NOWHERE", departure: D.Event(time: nil, delay: 60))]),
            // T6 cancelled: its three stop times are skipped.
            D.TripUpdate(entityID: "d", trip: D.TripDescriptor(tripID: "T6", startDate: monday, relationship: 3)),
            D.TripUpdate(entityID: "e", trip: D.TripDescriptor(tripID: "EXTRA-1", routeID: "N2", startDate: ServiceDate(yyyymmdd: 20260303), relationship: 8),
                         stopTimeUpdates: [D.StopTimeUpdate(stopID: "HBF_2", departure: D.Event(time: timestamp + 600, delay: nil)),
                                           D.StopTimeUpdate(stopID: "GOR", departure: D.Event(time: timestamp + 1200, delay: nil))]),
        ]
        dataset.vehicles = [
            vehicle("v-1", id: "V1", tripID: "T1", status: nil, position: (52.5252, 13.3690)),
            vehicle("v-2", id: "V2", tripID: "T6", status: 1, position: nil),
            vehicle("v-3", id: "V3", routeID: "N2", status: 2, position: (52.4993, 13.4280)),
            vehicle("v-4", id: "V4", tripID: "T3", status: 1, position: (52.51, 13.39)),
            vehicle("v-5", id: "V5", routeID: "R1", status: 0, position: (52.5249, 13.3692)),
        ]
        dataset.alerts = [
            alert("A1", texts: [("Lift out of order", "en"), ("Aufzug defekt", "de")], entities: [entity(stop: "HBF")]),
            alert("A2", texts: [("Detour", nil)], entities: [entity(route: "R1")], periods: [(timestamp - 7200, timestamp - 3600)]),
            alert("A3", texts: [("Rail works", nil)], entities: [entity(type: 2)]),
            alert("A4", texts: [("Night line changes", nil)], entities: [entity(agency: "LVB", route: "N2")]),
            alert("A5", texts: [("Strike", "de")], entities: [entity(trip: "T1"), entity(route: "R1")]),
            alert("A6", texts: [("Everywhere", nil)], entities: []),
        ]
        dataset.sources[0].tripUpdates = dataset.tripUpdates.count
        dataset.sources[0].vehicles = dataset.vehicles.count
        dataset.sources[0].alerts = dataset.alerts.count
        return dataset
    }

    /// Realtime data for a second feed (`FeedFixture`: route R, trip T, stops S1–S3) that names
    /// a route `R1` too, which is not lindenau's.
    private var other: RealtimeDataset {
        typealias D = RealtimeDataset
        var dataset = D()
        dataset.sources = [D.Source(name: "other.pb", timestamp: timestamp + 60)]
        dataset.sources[0].vehicles = 2
        dataset.tripUpdates = [D.TripUpdate(entityID: "x", trip: D.TripDescriptor(tripID: "T", startDate: ServiceDate(yyyymmdd: 20260302)),
                                            stopTimeUpdates: [D.StopTimeUpdate(stopSequence: 2, departure: D.Event(time: nil, delay: 60))])]
        dataset.vehicles = [vehicle("w-1", id: "W1", tripID: "T", status: 1, position: (52.5, 13.4)),
                            vehicle("w-2", id: "W2", routeID: "R1", status: 1, position: (52.5251, 13.3691))]
        dataset.alerts = [alert("B1", texts: [("Other R1", nil)], entities: [entity(route: "R1")])]
        return dataset
    }

    private func vehicle(_ entityID: String, id: String, tripID: String? = nil, routeID: String? = nil, status: Int?,
                         position: (Double, Double)?) -> RealtimeDataset.Vehicle {
        var vehicle = RealtimeDataset.Vehicle(entityID: entityID)
        vehicle.vehicleID = id
        vehicle.label = "Bus " + id
        if tripID != nil || routeID != nil { vehicle.trip = RealtimeDataset.TripDescriptor(tripID: tripID, routeID: routeID) }
        vehicle.status = status
        vehicle.latitude = position?.0
        vehicle.longitude = position?.1
        vehicle.timestamp = timestamp - 20
        return vehicle
    }

    private func entity(agency: String? = nil, route: String? = nil, type: Int? = nil, trip: String? = nil, stop: String? = nil) -> RealtimeDataset.Alert.Entity {
        var entity = RealtimeDataset.Alert.Entity()
        entity.agencyID = agency
        entity.routeID = route
        entity.routeType = type
        entity.tripID = trip
        entity.stopID = stop
        return entity
    }

    private func alert(_ id: String, texts: [(String, String?)], entities: [RealtimeDataset.Alert.Entity],
                       periods: [(start: Int?, end: Int?)] = []) -> RealtimeDataset.Alert {
        var alert = RealtimeDataset.Alert(entityID: id)
        alert.texts = texts.map { RealtimeDataset.Alert.Text(field: "header", language: $0.1, text: $0.0) }
        alert.entities = entities
        alert.periods = periods
        return alert
    }

    /// A copy of the demo database with a second feed, `other`, and both datasets stored.
    private func database(in directory: TemporaryDirectory) throws -> TransitDatabase {
        let path = directory.file("db.sqlite")
        try FileManager.default.copyItem(atPath: try DemoDatabase.path(), toPath: path)
        let imported = try CommandRun.transit(["import", try FeedFixture().write(to: directory, as: "other"), "--db", path, "--quiet"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        _ = try RealtimeStore.store(lindenau, feedNamed: "lindenau", databaseAt: path, now: timestamp)
        _ = try RealtimeStore.store(other, feedNamed: "other", databaseAt: path, now: timestamp)
        return try TransitDatabase(path: path)
    }

    private func feed(_ name: String, of transit: TransitDatabase) throws -> Feed {
        try XCTUnwrap(transit.feed(named: name))
    }

    /// The values of `keyPath` of the rows of `entity` in `feed`'s model for which `format` holds,
    /// in the entity's natural order.
    private func values(_ keyPath: String, of entity: String, where format: String, in feed: Feed,
                        of transit: TransitDatabase) throws -> [String] {
        var fetch = try XCTUnwrap(ModelFetch(entity: entity, in: TransitModel.model(for: feed)))
        try fetch.filter(format: format)
        var found: [String] = []
        try transit.database.forEachRow(SQLGenerator.prepare(try fetch.query(selecting: [keyPath]).query)) {
            found.append($0.optionalString(keyPath) ?? "nil")
        }
        return found
    }

    func testPredicatesOverTheRealtimeEntitiesAnswerWhatTheStoredRowsSay() throws {
        let directory = TemporaryDirectory()
        let transit = try database(in: directory)
        let demo = try feed("lindenau", of: transit)
        let model = TransitModel.model(for: demo)

        // The changed stop times of route R1's trips, against every changed stop time whose
        // trip (a typed record) is of that route.
        let routes = try transit.database.fetch(FetchRequest<Route>())
        let r1 = try XCTUnwrap(routes.first { $0.routeID == "R1" && $0.feedKey == demo.key })
        let routeOfTrip = Dictionary(uniqueKeysWithValues: try transit.database.fetch(FetchRequest<Trip>()).map { ($0.key, $0.routeKey) })
        /// "T1/2" (trip_id/stop_sequence, " skipped" when so) and the trip's key, in that order.
        func changedStopTimes(where format: String) throws -> [(text: String, trip: Int)] {
            var fetch = try XCTUnwrap(ModelFetch(entity: "realtime_stop_times", in: model))
            try fetch.filter(format: format)
            var rows: [(text: String, trip: Int)] = []
            try transit.database.forEachRow(SQLGenerator.prepare(try fetch.query(selecting: ["trip.trip_id", "stop_sequence", "skipped"], columns: ["trip"]).query)) {
                rows.append(("\($0.string("trip.trip_id"))/\($0.int("stop_sequence"))\($0.int("skipped") == 1 ? " skipped" : "")", $0.int("trip")))
            }
            return rows.sorted { $0.text < $1.text }
        }
        let everyChange = try changedStopTimes(where: "TRUEPREDICATE")
        let ofR1 = everyChange.filter { routeOfTrip[$0.trip] == r1.key }.map(\.text)
        XCTAssertEqual(try changedStopTimes(where: "trip.route.route_id == 'R1'").map(\.text), ofR1)
        XCTAssertEqual(ofR1, ["T1/2", "T1/3", "T1/4", "T1/5", "T6/1 skipped", "T6/2 skipped", "T6/3 skipped"],
                       "T1 from its update on, every stop time of the cancelled T6")
        XCTAssertEqual(everyChange.count, ofR1.count + 3, "and T3's stop times 2 to 4, of route N2")

        // Vehicles by status, as stored; the other feed's stopped vehicles are not this feed's.
        let stopped = lindenau.vehicles.filter { $0.status == 1 }.map(\.entityID)
        XCTAssertEqual(stopped, ["v-2", "v-4"])
        XCTAssertEqual(try values("entity_id", of: "realtime_vehicles", where: "current_status == 'stopped_at'", in: demo, of: transit), stopped)
        XCTAssertEqual(try values("entity_id", of: "realtime_vehicles", where: "current_status == 'stopped_at'", in: try feed("other", of: transit), of: transit),
                       ["w-1", "w-2"])
        XCTAssertEqual(try values("vehicle_id", of: "realtime_vehicles", where: "trip.route.route_short_name == '1'", in: demo, of: transit),
                       ["V1", "V2"], "the vehicles on T1 and T6")

        // Alerts by their informed entities, a to-many relationship.
        let aboutR1 = lindenau.alerts.filter { $0.entities.contains { $0.routeID == "R1" } }.map(\.entityID)
        XCTAssertEqual(aboutR1, ["A2", "A5"])
        XCTAssertEqual(try values("entity_id", of: "realtime_alerts", where: "ANY informed_entities.route_id == 'R1'", in: demo, of: transit), aboutR1)
        XCTAssertEqual(try values("entity_id", of: "realtime_alerts", where: "informed_entities.@count == 0", in: demo, of: transit), ["A6"])
        XCTAssertEqual(try values("text", of: "realtime_alert_texts", where: "alert.entity_id == 'A1' AND language == 'de'", in: demo, of: transit),
                       ["Aufzug defekt"])

        // Trip updates with and without stop time updates.
        let updated = lindenau.tripUpdates.filter { !$0.stopTimeUpdates.isEmpty }.map(\.entityID)
        XCTAssertEqual(updated, ["a", "b", "c", "e"])
        XCTAssertEqual(try values("entity_id", of: "realtime_trip_updates", where: "stop_time_updates.@count > 0", in: demo, of: transit), updated)
        XCTAssertEqual(try values("entity_id", of: "realtime_trip_updates", where: "stop_time_updates.@count == 0", in: demo, of: transit), ["d"])
        XCTAssertEqual(try values("entity_id", of: "realtime_trip_updates", where: "schedule_relationship == 'canceled' AND trip.route == 'R1'",
                                  in: demo, of: transit), ["d"])
        // Stop time updates whose stop_id named a stop of the feed, by the stop's name.
        let atGorli = lindenau.tripUpdates.flatMap { update in update.stopTimeUpdates.filter { $0.stopID == "GOR" }.map { _ in update.entityID } }
        XCTAssertEqual(try values("trip_update.entity_id", of: "realtime_stop_time_updates", where: "stop.stop_name BEGINSWITH[cd] 'u gor'",
                                  in: demo, of: transit), atGorli)
        XCTAssertEqual(atGorli, ["b", "c", "e"])
        // Updates by stop_sequence, or naming no stop of the feed, have none.
        let stopless = lindenau.tripUpdates.flatMap { update in
            update.stopTimeUpdates.filter { $0.stopID == nil || $0.stopID == "NOWHERE" }.map { (update: update.entityID, stopID: $0.stopID ?? "nil") }
        }
        XCTAssertEqual(stopless.map(\.stopID), ["nil", "NOWHERE", "NOWHERE"])
        XCTAssertEqual(try values("trip_update.entity_id", of: "realtime_stop_time_updates", where: "stop == nil", in: demo, of: transit),
                       stopless.map(\.update))
        XCTAssertEqual(try values("stop_id", of: "realtime_stop_time_updates", where: "stop == nil", in: demo, of: transit), stopless.map(\.stopID))
    }

    func testEachFeedsRealtimeEntitiesHoldItsOwnRows() throws {
        let directory = TemporaryDirectory()
        let transit = try database(in: directory)
        for (name, dataset) in [("lindenau", lindenau), ("other", other)] {
            let feed = try feed(name, of: transit)
            XCTAssertEqual(try values("entity_id", of: "realtime_vehicles", where: "TRUEPREDICATE", in: feed, of: transit),
                           dataset.vehicles.map(\.entityID), name)
            XCTAssertEqual(try values("entity_id", of: "realtime_trip_updates", where: "TRUEPREDICATE", in: feed, of: transit),
                           dataset.tripUpdates.map(\.entityID), name)
            XCTAssertEqual(try values("entity_id", of: "realtime_alerts", where: "TRUEPREDICATE", in: feed, of: transit),
                           dataset.alerts.map(\.entityID), name)
            XCTAssertEqual(try values("alert.entity_id", of: "realtime_alert_entities", where: "TRUEPREDICATE", in: feed, of: transit),
                           dataset.alerts.flatMap { alert in alert.entities.map { _ in alert.entityID } }, name)
            XCTAssertEqual(try values("trip_update.entity_id", of: "realtime_stop_time_updates", where: "TRUEPREDICATE", in: feed, of: transit),
                           dataset.tripUpdates.flatMap { update in update.stopTimeUpdates.map { _ in update.entityID } }, name)
            XCTAssertEqual(try values("source", of: "realtime_sources", where: "TRUEPREDICATE", in: feed, of: transit),
                           dataset.sources.map(\.name), name)
        }
    }

    func testListingsReadEachFeedsStoredRows() throws {
        let directory = TemporaryDirectory()
        let transit = try database(in: directory)
        let demo = try feed("lindenau", of: transit), second = try feed("other", of: transit)
        XCTAssertEqual(try VehicleListing.timestamps(in: transit), [demo.key: timestamp, second.key: timestamp + 60])
        XCTAssertEqual(try transit.realtimeFeeds().mapValues { $0.timestamp }, [demo.key: timestamp, second.key: timestamp + 60])
        XCTAssertEqual(try transit.realtimeFeeds()[demo.key]?.window.latestDelay, 240)

        func vehicles(_ configure: (inout VehicleListing) throws -> Void) throws -> [String] {
            var listing = VehicleListing()
            try configure(&listing)
            return try listing.run(on: transit, feeds: [demo.key, second.key]).map { "\($0.feed) \($0.vehicleID ?? "-") \($0.status ?? "-")" }
        }
        XCTAssertEqual(try vehicles { _ in }, ["lindenau V1 -", "lindenau V2 STOPPED_AT", "lindenau V4 STOPPED_AT", "lindenau V3 IN_TRANSIT_TO",
                                               "lindenau V5 INCOMING_AT", "other W1 STOPPED_AT", "other W2 STOPPED_AT"],
                       "by feed, route_id (none first), then vehicle id")
        XCTAssertEqual(try vehicles { $0.route = try transit.route(named: "lindenau:R1") }, ["lindenau V1 -", "lindenau V2 STOPPED_AT", "lindenau V5 INCOMING_AT"],
                       "its trips T1 and T6, and the descriptor naming R1 in its feed (not other's W2)")
        XCTAssertEqual(try vehicles { $0.route = try transit.route(named: "other:R") }, ["other W1 STOPPED_AT"])
        XCTAssertEqual(try vehicles { $0.trip = try transit.trip(named: "T3") }, ["lindenau V4 STOPPED_AT"])
        XCTAssertEqual(try vehicles { $0.near = (52.525, 13.369, 100) }, ["other W2 STOPPED_AT", "lindenau V5 INCOMING_AT", "lindenau V1 -"],
                       "nearest first")

        // Alerts with no period are active; the feed's language (de) is chosen for lindenau's.
        let alerts = try AlertListing().run(on: transit, at: timestamp)
        XCTAssertEqual(alerts.map { "\($0.feed) \($0.alertID) \($0.header ?? "-")" },
                       ["lindenau A1 Aufzug defekt", "lindenau A3 Rail works", "lindenau A4 Night line changes", "lindenau A5 Strike",
                        "lindenau A6 Everywhere", "other B1 Other R1"])
        XCTAssertEqual(alerts.first { $0.alertID == "A5" }?.entities, ["trip T1", "route R1"])
        var ofRoute = AlertListing()
        ofRoute.concerning = try AlertListing.Scope.of(route: try transit.route(named: "N2").key, in: transit)
        XCTAssertEqual(ofRoute.concerning?.feeds.keys.sorted(), [demo.key])
        XCTAssertEqual(ofRoute.concerning?.feeds[demo.key]?.agencyIDs, ["LVB"])
        XCTAssertEqual(ofRoute.concerning?.feeds[demo.key]?.routeTypes, [3])
        XCTAssertEqual(try ofRoute.run(on: transit, at: timestamp).map(\.alertID), ["A4"])
        let platform = try transit.boardingKeys(forStopID: "HBF_1")
        let scope = try AlertListing.Scope.of(stopKeys: platform, in: transit)
        XCTAssertEqual(scope.feeds.keys.sorted(), [demo.key])
        XCTAssertEqual(scope.feeds[demo.key]?.stopIDs, ["HBF_1", "HBF"], "the platform and its station")
        XCTAssertEqual(scope.feeds[demo.key]?.routeIDs, ["R1", "RING"])
        XCTAssertEqual(scope.feeds[demo.key]?.routeTypes, [3, 2])
        // Other's B1 names its own route R1, not lindenau's: it does not concern HBF_1.
        var atPlatform = AlertListing()
        atPlatform.concerning = scope
        XCTAssertEqual(try atPlatform.run(on: transit, at: timestamp).map { "\($0.feed) \($0.alertID)" },
                       ["lindenau A1", "lindenau A3", "lindenau A5"])
        // Stops of both feeds (as --near may pick): each feed's alerts meet its own ids only, so
        // B1 (other's R1) is not matched by lindenau's R1.
        var atBoth = AlertListing()
        atBoth.concerning = try AlertListing.Scope.of(stopKeys: platform + (try transit.boardingKeys(forStopID: "other:S1")), in: transit)
        XCTAssertEqual(atBoth.concerning?.feeds[second.key]?.routeIDs, ["R"])
        XCTAssertEqual(try atBoth.run(on: transit, at: timestamp).map { "\($0.feed) \($0.alertID)" },
                       ["lindenau A1", "lindenau A3", "lindenau A5"])
    }

    func testADatabaseWithoutRealtimeDataListsNothing() throws {
        let transit = try TransitDatabase(path: try DemoDatabase.path())
        let demo = try XCTUnwrap(transit.feeds.first)
        XCTAssertTrue(try transit.realtimeFeeds().isEmpty)
        XCTAssertTrue(try VehicleListing.timestamps(in: transit).isEmpty)
        XCTAssertTrue(try VehicleListing().run(on: transit, feeds: [demo.key]).isEmpty)
        XCTAssertTrue(try AlertListing().run(on: transit, at: timestamp).isEmpty)
    }

    func testTheStoresLookupsSearchByTheirKeys() throws {
        let transit = try TransitDatabase(path: try DemoDatabase.path())
        let lookups = try RealtimeLookups(feed: try XCTUnwrap(transit.feeds.first))
        // Each runs per update: an equality search on its key, never a range of the feed's rows
        // (the key-range scope) nor a sort.
        let expected: [(String, PreparedRequest, String)] = [
            ("trip", lookups.trip.request, "trip_id=?"), ("stop", lookups.stop.request, "stop_id=?"), ("route", lookups.route.request, "route_id=?"),
            ("stopName", lookups.stopName.request, "rowid=?"), ("serviceDays", lookups.serviceDays.request, "date=? AND service=?"),
            ("frequencyCount", lookups.frequencyCount, "trip=?"), ("firstDeparture", lookups.firstDeparture.request, "trip=?"),
            ("stopTimesOfTrip", lookups.stopTimesOfTrip.request, "trip=?"),
        ]
        for (name, request, search) in expected {
            let plan = try transit.database.queryPlan(request)
            XCTAssertEqual(plan.steps.count, 1, "\(name): \(plan.tree)")
            XCTAssertTrue(plan.steps.allSatisfy { $0.detail.hasPrefix("SEARCH ") && $0.detail.contains("(" + search) }, "\(name): \(plan.tree)")
        }
        // The positions found once are those of the columns named.
        var found: [String] = []
        let position = lookups.stopTimesOfTrip.position
        try transit.database.forEachRow(try lookups.stopTimesOfTrip.request.substituting(["trip": try transit.trip(named: "T1").key])) {
            XCTAssertEqual($0.int(position.stop), $0.int("stop"))
            XCTAssertEqual($0.optionalInt(position.arrival), $0.optionalInt("arrival_time"))
            found.append("\($0.int(position.sequence)) \($0.optionalInt(position.departure).map { GTFSTime.format($0) } ?? "-")")
        }
        XCTAssertEqual(found, ["1 08:00:00", "2 08:10:00", "3 08:20:00", "4 08:30:00", "5 08:40:00"], "T1's calls, CAFE and LODZ interpolated")
    }
}
