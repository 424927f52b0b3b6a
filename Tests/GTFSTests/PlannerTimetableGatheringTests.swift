import XCTest
import FetchRequest
import TestSupport
@testable import GTFS
import GTFSZip

/// The import gathers each trip's calls for the journey planner while it loads stop_times.txt
/// (`PlannerTripCollector`) instead of reading them back afterwards. These tests hold what it
/// writes to what the builder writes from the database alone (every trip read back, as for a
/// database upgraded to journey planning), byte for byte, on feeds with every kind of trip the
/// collector must leave to the read-back.
final class PlannerTimetableGatheringTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUp() { directory = TemporaryDirectory() }
    override func tearDown() { directory = nil }

    /// Twenty trips of one pattern, then trips the stream cannot take whole: split across the file
    /// (one with a duplicate stop_sequence in its second part, one whose first part is a single
    /// call), one with untimed calls, one listed out of order, one overtaking another, a
    /// frequencies trip, a one-call trip, one nobody can alight from.
    private static var awkwardFeed: FeedFixture { FeedFixture()
        .with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nA,A,52.50,13.40\nB,B,52.51,13.41\nC,C,52.52,13.42\nD,D,52.53,13.43\n")
        .with("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type\n"
            + (0..<20).map { trip in
                (0..<3).map { call in
                    let time = String(format: "%02d:%02d:00", 6 + trip / 2, (trip % 2) * 30 + call * 7)
                    return "N\(trip),\(time),\(time),\(["A", "B", "C"][call]),\(call + 1),0,0"
                }.joined(separator: "\n")
            }.joined(separator: "\n") + """

            SPLIT,08:00:00,08:00:00,A,1,,
            SPLIT,08:05:00,08:05:00,B,2,,
            LONE,09:00:00,09:00:00,A,1,,
            UNTIMED,10:00:00,10:00:00,A,1,,
            UNTIMED,,,B,2,,
            UNTIMED,,,C,3,,
            UNTIMED,10:30:00,10:31:00,D,4,,
            SHUFFLED,11:20:00,11:20:00,C,3,,
            SHUFFLED,11:00:00,11:00:00,A,1,,
            SHUFFLED,11:10:00,11:10:00,B,2,,
            SPLIT,08:05:00,08:05:00,B,2,,
            SPLIT,08:10:00,08:10:00,C,3,,
            FAST,06:01:00,06:01:00,A,1,,
            FAST,06:03:00,06:03:00,B,2,,
            FAST,06:05:00,06:05:00,C,3,,
            HEADWAY,00:00:00,00:00:00,A,1,,
            HEADWAY,00:04:00,00:04:00,C,3,,
            ONE,12:00:00,12:00:00,A,1,,
            NOBODY,13:00:00,13:00:00,A,1,0,1
            NOBODY,13:05:00,13:05:00,B,2,0,1
            LONE,09:10:00,09:10:00,B,2,,
            LONE,09:20:00,09:20:00,D,4,,
            """)
        .with("trips.txt", "route_id,service_id,trip_id\n"
            + ((0..<20).map { "N\($0)" } + ["SPLIT", "LONE", "UNTIMED", "SHUFFLED", "FAST", "HEADWAY", "ONE", "NOBODY"])
                .map { "R,WD,\($0)" }.joined(separator: "\n") + "\n")
        .with("frequencies.txt", "trip_id,start_time,end_time,headway_secs\nHEADWAY,07:00:00,08:00:00,600\nHEADWAY,17:00:00,17:30:00,900\n")
    }

    func testTheTimetableGatheredWhileLoadingEqualsTheOneReadBackWhenFewTripsAreDeferred() throws {
        try assertGatheredEqualsReadBack(Self.awkwardFeed, expectingPatterns: 5...)
    }

    func testTheTimetableGatheredWhileLoadingEqualsTheOneReadBackWhenMostTripsAreDeferred() throws {
        // Every trip has an untimed call: all are read back in one pass over the table.
        let untimed = (0..<8).map { trip in
            "U\(trip),0\(trip):00:00,0\(trip):00:00,A,1\nU\(trip),,,B,2\nU\(trip),0\(trip):20:00,0\(trip):20:00,C,3"
        }
        let feed = FeedFixture()
            .with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nA,A,52.50,13.40\nB,B,52.51,13.41\nC,C,52.52,13.42\n")
            .with("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + untimed.joined(separator: "\n") + "\n")
            .with("trips.txt", "route_id,service_id,trip_id\n" + (0..<8).map { "R,WD,U\($0)" }.joined(separator: "\n") + "\n")
        try assertGatheredEqualsReadBack(feed, expectingPatterns: 1...1)
    }

    func testTheDemoFeedsTimetableGatheredWhileLoadingEqualsTheOneReadBack() throws {
        try assertGatheredEqualsReadBack(path: Paths.demoFeed, expectingPatterns: 2...)
    }

    func testTheSharedFeedsTimetablesGatheredWhileLoadingEqualTheOnesReadBack() throws {
        let names = ["sample_gtfs.zip", "cairns_gtfs.zip", "vilnius.zip"]
        let paths = names.compactMap { Paths.sharedFeed($0) }
        guard paths.count == names.count else { throw XCTSkip("../shared/feeds is absent: skipped the shared feeds") }
        for path in paths { try assertGatheredEqualsReadBack(path: path, expectingPatterns: 1...) }
    }

    /// A trip taken as it streams by, one split across the file and one with untimed calls (both
    /// deferred, then read back as the database holds them) come out of the collector's scratch
    /// file with their own times, in their pattern, in key order; a deferred trip's first record
    /// is left unused.
    func testTheCollectorReadsSplitAndInterpolatedTripsBackFromItsScratchFile() throws {
        let collector = try PlannerTripCollector(feedKey: 1, tripCount: 3, scratchDirectory: directory.path)
        let base = FeedKeys.base(of: 1)
        let (whole, split, untimed, a, b) = (base + 1, base + 2, base + 3, base + 1, base + 2)
        func add(_ trip: Int, _ sequence: Int, _ stop: Int, _ arrival: Int?, _ departure: Int?) {
            collector.add(trip: trip, sequence: sequence, stop: stop, arrival: arrival, departure: departure, pickup: nil, dropOff: nil)
        }
        add(split, 1, a, 300, 300)
        add(whole, 1, a, 100, 110)
        add(whole, 2, b, 200, 210)
        add(untimed, 1, a, 400, 400)
        add(untimed, 2, b, nil, nil)
        add(split, 2, b, 360, 360)
        XCTAssertEqual(collector.readBackMode(), [split, untimed])
        // The builder's read-back: every trip in key order, times interpolated (the trip taken
        // already is not taken again).
        add(whole, 1, a, 999, 999)
        add(whole, 2, b, 999, 999)
        add(split, 1, a, 300, 300)
        add(split, 2, b, 360, 360)
        add(untimed, 1, a, 400, 400)
        add(untimed, 2, b, 450, 455)
        collector.finish()
        XCTAssertEqual(collector.patterns.count, 1)
        let members = collector.members()
        XCTAssertEqual(Array(members[0]), [0, 1, 2])
        // Per trip: its first time (low, high half), then each call's arrival and departure.
        XCTAssertEqual(try collector.records(of: members[0], in: 0), [110, 0, 100, 110, 200, 210,
                                                                      300, 0, 300, 300, 360, 360,
                                                                      400, 0, 400, 400, 450, 455])
    }

    /// More trips than the scratch file's write buffer holds, two patterns taking turns (so a
    /// pattern's records are not next to each other) and the last ones not yet written when read:
    /// every trip's times come back as they went in.
    func testTripsBeyondTheScratchFilesBufferComeBackWhole() throws {
        let (trips, calls) = (3_000, 60)
        let collector = try PlannerTripCollector(feedKey: 2, tripCount: trips, scratchDirectory: directory.path)
        let base = FeedKeys.base(of: 2)
        func time(_ trip: Int, _ call: Int) -> Int { trip * 1_000 + call * 10 }
        for trip in 0..<trips {
            for call in 0..<calls {
                // Odd trips start at another stop: another pattern.
                let stop = base + 1 + call + (trip % 2 == 1 && call == 0 ? calls : 0)
                collector.add(trip: base + 1 + trip, sequence: call, stop: stop, arrival: time(trip, call), departure: time(trip, call) + 5,
                              pickup: nil, dropOff: nil)
            }
        }
        XCTAssertEqual(collector.readBackMode(), [])
        XCTAssertEqual(collector.patterns.count, 2)
        let members = collector.members()
        for pattern in 0..<2 {
            let slots = members[pattern]
            XCTAssertEqual(Array(slots), Array(stride(from: Int32(pattern), to: Int32(trips), by: 2)))
            let records = try collector.records(of: slots, in: pattern)
            var expected: [Int32] = []
            for trip in slots.map({ Int($0) }) {
                expected += [Int32(time(trip, 0) + 5), 0]
                for call in 0..<calls { expected += [Int32(time(trip, call)), Int32(time(trip, call) + 5)] }
            }
            XCTAssertEqual(records, expected, "pattern \(pattern)")
        }
    }

    private func assertGatheredEqualsReadBack(_ fixture: FeedFixture, expectingPatterns patterns: some RangeExpression<Int>,
                                              file: StaticString = #filePath, line: UInt = #line) throws {
        try assertGatheredEqualsReadBack(path: try fixture.write(to: directory), expectingPatterns: patterns, file: file, line: line)
    }

    /// Imports `path`, keeps the planner rows the import wrote, rebuilds them from the database
    /// alone and asserts both are the same rows, with at least the patterns expected.
    private func assertGatheredEqualsReadBack(path: String, expectingPatterns patterns: some RangeExpression<Int>,
                                              file: StaticString = #filePath, line: UInt = #line) throws {
        let databasePath = directory.file("db-\(UUID().uuidString).sqlite")
        try Importer(feedPath: path, databasePath: databasePath, openFeed: openFeedOrZip(at:)).run()
        let database = try Database(path: databasePath, mode: .readWrite)
        let table = Schema.planner(1)
        let gathered = try plannerRows(table.name, in: database)
        // Every row: the stop index, the patterns and the bounds (ids below 0).
        try database.run(SQLGenerator.prepareDelete(from: table.name, where: Column(Schema.PlannerColumn.id.rawValue).isNotNull))
        let summary = try database.inTransaction { try PlannerTimetableBuilder(database: database, feedKey: 1).build() }
        let readBack = try plannerRows(table.name, in: database)
        XCTAssertEqual(gathered.count, readBack.count, "patterns + the stop index + the bounds", file: file, line: line)
        XCTAssertTrue(patterns.contains(summary.patterns), "\(summary.patterns) patterns", file: file, line: line)
        for (id, bytes) in readBack where gathered[id] != bytes {
            XCTFail("planner row \(id) differs: \(gathered[id]?.count ?? 0) bytes gathered, \(bytes.count) read back", file: file, line: line)
        }
    }

    private func plannerRows(_ table: String, in database: Database) throws -> [Int: [UInt8]] {
        var rows: [Int: [UInt8]] = [:]
        let query = Query(table: table).select(Column(Schema.PlannerColumn.id.rawValue), Column(Schema.PlannerColumn.data.rawValue))
        try database.forEachRow(SQLGenerator.prepare(query)) { row in rows[row.int(0)] = row.withBlob(1) { Array($0) } }
        return rows
    }
}
