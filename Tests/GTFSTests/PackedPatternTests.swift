import XCTest
import FetchRequest
import TestSupport
@testable import GTFS
import GTFSZip

/// The planner stores each pattern compactly (`PackedPattern`): every time as its difference from
/// what the runs before predict. These tests pin that what is read back is what was written, on
/// real feeds and on times no timetable would have; that a damaged row is refused, never misread;
/// that databases written in the first form still read; and that the compact form is the smaller.
final class PackedPatternTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUp() { directory = TemporaryDirectory() }
    override func tearDown() { directory = nil }

    /// One pattern's contents, as written and as read back.
    private struct Contents: Equatable {
        var stops: [Int]
        var permissions: [UInt8]
        var trips: [Int]
        var services: [Int]
        var arrivals: [Int32]
        var departures: [Int32]

        var compact: [UInt8] {
            PackedPattern.bytes(stops: stops, permissions: permissions, trips: trips, services: services, arrivals: arrivals, departures: departures)
        }

        /// The first stored form, as databases imported before the compact one hold it.
        var firstForm: [UInt8] {
            var writer = PackedWriter()
            writer.append(UInt32(stops.count))
            writer.append(UInt32(trips.count))
            for stop in stops { writer.append(Int64(stop)) }
            for permission in permissions { writer.append(permission) }
            for key in trips + services { writer.append(Int64(key)) }
            for time in arrivals + departures { writer.append(time) }
            return writer.bytes
        }

        init(stops: [Int], permissions: [UInt8], trips: [Int], services: [Int], arrivals: [Int32], departures: [Int32]) {
            (self.stops, self.permissions, self.trips, self.services) = (stops, permissions, trips, services)
            (self.arrivals, self.departures) = (arrivals, departures)
        }

        init(_ pattern: TripPattern) {
            let runs = pattern.runCount
            let cells = pattern.stops.indices.flatMap { position in (0..<runs).map { (position, $0) } }
            self.init(stops: pattern.stops, permissions: pattern.permissions, trips: pattern.trips, services: pattern.services,
                      arrivals: cells.map { Int32(pattern.arrival(run: $0.1, at: $0.0)) },
                      departures: cells.map { Int32(pattern.departure(run: $0.1, at: $0.0)) })
        }

        static func read(_ bytes: [UInt8], arena: PatternArena? = nil) throws -> Contents {
            try Contents(bytes.withUnsafeBytes { try TripPattern(packed: $0, arena: arena) })
        }
    }

    func testEveryPatternOfTheDemoAndSharedFeedsReadsBackAsWrittenInBothForms() throws {
        var feeds = [Paths.demoFeed]
        let names = ["sample_gtfs.zip", "cairns_gtfs.zip", "vilnius.zip"]
        let shared = names.compactMap { Paths.sharedFeed($0) }
        if shared.count == names.count {
            feeds += shared
        } else if ProcessInfo.processInfo.environment["CI"] == "true" {
            XCTFail("../shared/feeds is absent under CI=true")
        } else {
            print("PackedPatternTests: ../shared/feeds is absent: skipped the shared feeds, read the demo feed only")
        }
        for feed in feeds {
            let (compactBytes, firstFormBytes) = try assertPatternsReadBack(importing: feed)
            print("PackedPatternTests: \(feed): \(compactBytes) bytes compact, \(firstFormBytes) in the first form")
            // Real timetables repeat themselves: the compact form takes under a third of the bytes
            // (the demo feed's patterns have a run or two each: half).
            XCTAssertLessThan((feed == Paths.demoFeed ? 2 : 3) * compactBytes, firstFormBytes, feed)
        }
    }

    func testTimesNoTimetableWouldHaveReadBackAsWritten() throws {
        let extremes: [Int32] = [.min, .max, 0, -1, 1, .max, .min, 86_400 * 3, -86_400, 7]
        let shapes = [
            // Times that go back along a trip and between runs, departures before arrivals.
            Contents(stops: [5, 1 << 40, 3, -2], permissions: [3, 1, 0, 2], trips: [Int.max, 0, -7], services: [Int.min, 4, 4],
                     arrivals: (0..<12).map { Int32(($0 * 7_919) % 5_000 - 2_500) },
                     departures: (0..<12).map { Int32(($0 * 104_729) % 9_000 - 4_500) }),
            Contents(stops: [9, 8], permissions: [1, 2], trips: [1, 2, 3, 4, 5], services: [1, 1, 1, 1, 1],
                     arrivals: extremes, departures: extremes.reversed()),
            // One stop, one run; no runs at all.
            Contents(stops: [42], permissions: [3], trips: [1], services: [2], arrivals: [3_600], departures: [3_600]),
            Contents(stops: [1, 2, 3], permissions: [1, 3, 2], trips: [], services: [], arrivals: [], departures: [])
        ]
        let arena = PatternArena()
        for contents in shapes {
            XCTAssertEqual(try Contents.read(contents.compact), contents)
            XCTAssertEqual(try Contents.read(contents.firstForm), contents)
            XCTAssertEqual(try Contents.read(contents.compact, arena: arena), contents, "decoded into an arena")
        }
    }

    /// The timetable decodes the patterns it reads into one arena (`PatternArena`): every pattern
    /// of Vilnius's feed, twice, and one too large for a chunk decoded into one, all kept, read the
    /// same as each decoded alone, once they are all there (no block overlaps another: the
    /// arena's chunks, and the regions of their own that large blocks get, are handed out once).
    func testPatternsDecodedIntoOneArenaEachReadAsDecodedAlone() throws {
        guard let feed = Paths.sharedFeed("vilnius.zip") else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("../shared/feeds/vilnius.zip is absent under CI=true") }
            print("PackedPatternTests: ../shared/feeds/vilnius.zip is absent: skipped the arena test")
            return
        }
        let stored = try storedPatterns(importing: feed)
        let arena = PatternArena()
        var kept: [(pattern: TripPattern, alone: Contents)] = []
        var timeBytes = 0
        // Every pattern twice (a batch's timetable reads each once; twice fills more chunks), and one
        // larger than a quarter of a chunk (a region of its own) between the two passes.
        let runs = 1_000, stops = 200
        let large = Contents(stops: Array(0..<stops), permissions: Array(repeating: 3, count: stops), trips: Array(0..<runs),
                             services: Array(repeating: 1, count: runs), arrivals: (0..<(stops * runs)).map { Int32($0 % 7_000) },
                             departures: (0..<(stops * runs)).map { Int32($0 % 7_000 + $0 % 3) })
        XCTAssertGreaterThan(4 * stops * runs, PatternArena.chunkBytes / 4)
        var largePattern: TripPattern?
        for _ in 0..<2 {
            for bytes in stored {
                let pattern = try bytes.withUnsafeBytes { try TripPattern(packed: $0, arena: arena) }
                timeBytes += 4 * pattern.stops.count * pattern.runCount
                kept.append((pattern, try Contents.read(bytes)))
            }
            if largePattern == nil { largePattern = try large.compact.withUnsafeBytes { try TripPattern(packed: $0, arena: arena) } }
        }
        print("PackedPatternTests: \(kept.count) patterns in one arena, at least \(timeBytes) bytes of times")
        XCTAssertGreaterThan(timeBytes, PatternArena.chunkBytes, "Vilnius's patterns fill more than one chunk")
        for (pattern, alone) in kept { XCTAssertEqual(Contents(pattern), alone) }
        XCTAssertEqual(largePattern.map(Contents.init), large)
    }

    /// Every shorter prefix of a stored pattern, and one whose counts claim more than it holds,
    /// is refused as damaged.
    func testADamagedPatternIsRefusedNeverMisread() throws {
        let contents = Contents(stops: [10, 11, 12], permissions: [1, 3, 2], trips: [7, 8], services: [1, 1],
                                arrivals: [600, 1_200, 660, 1_260, 720, 1_320], departures: [610, 1_210, 660, 1_260, 720, 1_320])
        let bytes = contents.compact
        for length in 0..<bytes.count {
            XCTAssertThrowsError(try Contents.read(Array(bytes.prefix(length))), "the first \(length) of \(bytes.count) bytes") { error in
                XCTAssertTrue(error is PackedReader.Truncated, "\(error)")
            }
        }
        var huge = bytes
        huge.replaceSubrange(4..<12, with: [0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0x7F])
        XCTAssertThrowsError(try Contents.read(huge)) { XCTAssertTrue($0 is PackedReader.Truncated, "\($0)") }
    }

    /// Imports `feed`, reads every stored pattern, and asserts that it reads back the same from its
    /// compact bytes written again and from the first form; returns both forms' byte totals.
    private func assertPatternsReadBack(importing feed: String) throws -> (compact: Int, firstForm: Int) {
        var (compact, firstForm, patterns) = (0, 0, 0)
        for stored in try storedPatterns(importing: feed) {
            let contents = try Contents.read(stored)
            XCTAssertEqual(stored.prefix(4), [0xFF, 0xFF, 0xFF, 0xFF], "the import writes the compact form")
            XCTAssertEqual(contents.compact, stored, "written again, the same bytes")
            XCTAssertEqual(try Contents.read(contents.firstForm), contents, "the first form reads the same")
            compact += stored.count
            firstForm += contents.firstForm.count
            patterns += 1
        }
        XCTAssertGreaterThan(patterns, 0, feed)
        return (compact, firstForm)
    }

    /// Imports `feed` and returns each of its stored patterns' bytes, in id order.
    private func storedPatterns(importing feed: String) throws -> [[UInt8]] {
        let path = directory.file("db-\(UUID().uuidString).sqlite")
        try Importer(feedPath: feed, databasePath: path, openFeed: openFeedOrZip(at:)).run()
        let database = try Database(path: path, mode: .readOnly)
        let query = Query(table: Schema.planner(1).name).select(Column(Schema.PlannerColumn.data.rawValue))
            .filter(Column(Schema.PlannerColumn.id.rawValue) > 0)
        var stored: [[UInt8]] = []
        try database.forEachRow(SQLGenerator.prepare(query)) { row in stored.append(row.withBlob(0) { Array($0) }) }
        return stored
    }
}
