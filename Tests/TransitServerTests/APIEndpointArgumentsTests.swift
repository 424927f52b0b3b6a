import XCTest
@testable import TransitServer

/// Each endpoint's query string becomes the command line `transit` is asked: positional
/// arguments first, then the options in the endpoint's order, then `--format`.
final class APIEndpointArgumentsTests: XCTestCase {
    private func arguments(_ endpoint: String, id: String? = nil, _ query: String) throws -> [String] {
        let endpoint = try XCTUnwrap(APIEndpoint.all[endpoint], endpoint)
        return try endpoint.arguments(id: id, query: try XCTUnwrap(QueryString(query), query))
    }

    /// The mistake `arguments` throws, as `message | parameter`.
    private func mistake(_ endpoint: String, id: String? = nil, _ query: String) throws -> String {
        let endpoint = try XCTUnwrap(APIEndpoint.all[endpoint], endpoint)
        let query = try XCTUnwrap(QueryString(query), query)
        do throws(APIEndpoint.Mistake) {
            let words = try endpoint.arguments(id: id, query: query)
            return "no mistake: \(words)"
        } catch {
            return error.message + " | " + (error.parameter ?? "nil")
        }
    }

    func testEveryEndpointMapsItsParametersToItsCommandsWords() throws {
        XCTAssertEqual(try arguments("nearby", "feed=a&platforms=1&lat=54.68&limit=5&lon=25.28&radius=300&feed=b"),
                       ["nearby", "54.68", "25.28", "--radius", "300", "--limit", "5", "--platforms", "--feed", "a", "--feed", "b", "--format", "json"])
        XCTAssertEqual(try arguments("departures", "stop=HBF&at=2026-03-02+07:55&within=20&realtime=0&cancelled=true&format=csv"),
                       ["departures", "--stop", "HBF", "--at", "2026-03-02 07:55", "--within", "20", "--no-realtime", "--cancelled", "--format", "csv"])
        XCTAssertEqual(try arguments("search", "text=u+gorli&routes=yes&limit=3&platforms=no"),
                       ["search", "u gorli", "--limit", "3", "--routes", "--format", "json"])
        XCTAssertEqual(try arguments("trip", id: "T1", "date=2026-03-02&max_age=90&format=geojson"),
                       ["trip", "T1", "--date", "2026-03-02", "--max-age", "90", "--format", "geojson"])
        XCTAssertEqual(try arguments("routes", "near=52.5,13.4&type=3&radius=800"),
                       ["routes", "--near", "52.5,13.4", "--radius", "800", "--type", "3", "--format", "json"])
        XCTAssertEqual(try arguments("route", id: "R 1", "format=csv"), ["route", "R 1", "--format", "csv"])
        XCTAssertEqual(try arguments("feeds", ""), ["feeds", "--format", "json"])
        XCTAssertEqual(try arguments("alerts", "lang=de&route=R1&stop=HBF"),
                       ["alerts", "--stop", "HBF", "--route", "R1", "--lang", "de", "--format", "json"])
        XCTAssertEqual(try arguments("vehicles", "trip=T1&max_age=60&near=52.5,13.4"),
                       ["vehicles", "--near", "52.5,13.4", "--trip", "T1", "--max-age", "60", "--format", "json"])
        XCTAssertEqual(try arguments("plan", "from=HBF&to=ZOO&at=08:00&max_rides=2&realtime=false&stops=1&max_access_walk=400&walk_speed=1.2"),
                       ["plan", "HBF", "ZOO", "--at", "08:00", "--stops", "--max-rides", "2", "--max-access-walk", "400",
                        "--walk-speed", "1.2", "--no-realtime", "--format", "json"])
        XCTAssertEqual(try arguments("reach", "from=HBF&within=30&max_walk=300&format=geojson"),
                       ["reach", "HBF", "--within", "30", "--max-walk", "300", "--format", "geojson"])
    }

    func testListRenamesWhereToPredicateAndAsksAHundredRowsUnlessTold() throws {
        XCTAssertEqual(try arguments("list", id: "stops", "where=stop_name+BEGINSWITH+%24s&arg=H&arg=2&sort=stop_name"),
                       ["list", "stops", "--predicate", "stop_name BEGINSWITH $s", "--arg", "H", "--arg", "2", "--sort", "stop_name",
                        "--limit", "100", "--format", "json"])
        XCTAssertEqual(try arguments("list", id: "trips", "limit=7&offset=14"),
                       ["list", "trips", "--limit", "7", "--offset", "14", "--format", "json"])
    }

    func testAPositionalValueStartingWithADashFollowsDoubleDash() throws {
        XCTAssertEqual(try arguments("nearby", "lat=-33.92&lon=18.42"), ["nearby", "--format", "json", "--", "-33.92", "18.42"])
        XCTAssertEqual(try arguments("search", "text=--help"), ["search", "--format", "json", "--", "--help"])
    }

    func testMistakesNameTheirParameterInTheAPIsWords() throws {
        XCTAssertEqual(try mistake("feeds", "feed=a&fed=b"), "unknown parameter fed; /api/feeds takes feed, format, explain | fed")
        XCTAssertEqual(try mistake("nearby", "lon=13.4"), "lat is required | lat")
        XCTAssertEqual(try mistake("nearby", "lat=1&lon=2&limit=3&limit=4"), "limit is given 2 times; give it once | limit")
        XCTAssertEqual(try mistake("nearby", "lat=1&lon=2&radius=5001"), "radius is at most 5000 on this server; got 5001 | radius")
        XCTAssertEqual(try mistake("list", id: "stops", "limit=1001"), "limit is at most 1000 on this server; got 1001 | limit")
        XCTAssertEqual(try mistake("feeds", "format=geojson"), "format is json, csv for /api/feeds; got 'geojson' | format")
        XCTAssertEqual(try mistake("trip", id: nil, ""), "the path needs the id: /api/trip/{id} | id")
        XCTAssertEqual(try mistake("trip", id: "", ""), "the path needs the id: /api/trip/{id} | id")
    }

    func testYesAndNoAreReadAlikeByEveryFlagAndMaybeIsAMistake() throws {
        for yes in ["1", "true", "YES", "True", ""] {
            XCTAssertEqual(try arguments("search", "text=a&routes=\(yes)"), ["search", "a", "--routes", "--format", "json"], yes)
            XCTAssertEqual(try arguments("trip", id: "T", "realtime=\(yes)"), ["trip", "T", "--format", "json"], yes)
        }
        for no in ["0", "false", "No"] {
            XCTAssertEqual(try arguments("search", "text=a&routes=\(no)"), ["search", "a", "--format", "json"], no)
            XCTAssertEqual(try arguments("trip", id: "T", "realtime=\(no)"), ["trip", "T", "--no-realtime", "--format", "json"], no)
        }
        XCTAssertEqual(try mistake("search", "text=a&routes=maybe"), "routes takes 1 or 0; got 'maybe' | routes")
        XCTAssertEqual(try YesNoParameter.value(ofOptional: nil, named: "explain"), false)
        XCTAssertThrowsError(try YesNoParameter.value(ofOptional: "2", named: "explain"))
    }

    func testTheCommandLinesMessagesAreSaidInTheAPIsWords() throws {
        let plan = try XCTUnwrap(APIEndpoint.all["plan"])
        XCTAssertEqual(plan.inAPIWords("--max-access-walk is at most 2000 (see `transit search TEXT`, then --max-walk)"),
                       "max_access_walk is at most 2000 (see /api/search?text=TEXT, then max_walk)")
        XCTAssertEqual(plan.parameter(namedIn: "FROM: no stop has stop_id X"), "from")
        XCTAssertEqual(plan.parameter(namedIn: "--walk-speed must be above 0"), "walk_speed")
        XCTAssertNil(plan.parameter(namedIn: "the database is locked"))
        let trip = try XCTUnwrap(APIEndpoint.all["trip"])
        XCTAssertEqual(trip.parameter(namedIn: "no trip has trip_id X"), "id")
    }

    func testOnlyClockBoundEndpointsFollowTheClockAndOnlyWithoutATime() throws {
        let departures = try XCTUnwrap(APIEndpoint.all["departures"])
        XCTAssertTrue(departures.followsClock(try XCTUnwrap(QueryString("stop=HBF"))))
        XCTAssertFalse(departures.followsClock(try XCTUnwrap(QueryString("stop=HBF&at=08:00"))))
        XCTAssertFalse(try XCTUnwrap(APIEndpoint.all["trip"]).followsClock(try XCTUnwrap(QueryString("date=2026-03-02"))))
        XCTAssertFalse(try XCTUnwrap(APIEndpoint.all["nearby"]).followsClock(try XCTUnwrap(QueryString("lat=1&lon=2"))))
    }
}
