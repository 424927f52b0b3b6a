import XCTest
import Foundation
import TestSupport

/// `--input FILE|-` on nearby, departures and search: every row answered as the single command
/// answers it, in order, each record with its row number first; bad rows said and counted, the
/// others answered, exit 1.
final class BatchInputTests: XCTestCase {
    private func transit(_ arguments: [String], db: String? = nil) throws -> CommandRun {
        try CommandRun.transit(arguments + ["--db", try db ?? DemoDatabase.path()])
    }

    private func jsonRows(_ text: String) throws -> [[String: Any]] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], text)
    }

    /// Checks that the batch's JSON and CSV answers are, row by row, the single answers of
    /// `singles` (nil: the row is bad) with `input` first, and that the bad rows are said.
    private func assertBatchEqualsSingles(command: String, file: String, singles: [[String]?], extra: [String] = [],
                                          db: String? = nil, line: UInt = #line) throws {
        let json = try transit([command, "--input", file, "--format", "json"] + extra, db: db)
        let csv = try transit([command, "--input", file, "--format", "csv"] + extra, db: db)
        let failed = singles.filter { $0 == nil }.count
        XCTAssertEqual(json.status, failed > 0 ? 1 : 0, json.stderr, line: line)
        let batch = try jsonRows(json.stdout)
        var expectedCSV: [String] = []
        var answered = 0
        for (index, arguments) in singles.enumerated() {
            let number = index + 1
            let ours = batch.filter { $0["input"] as? Int == number }
            guard let arguments else {
                XCTAssertTrue(ours.isEmpty, "bad row \(number) has no answer", line: line)
                XCTAssertTrue(json.stderr.contains(": row \(number) (line \(number + 1)): "), "row \(number) is said: \(json.stderr)", line: line)
                continue
            }
            let single = try transit([command] + arguments + extra + ["--format", "json"], db: db)
            XCTAssertEqual(single.status, 0, single.stderr, line: line)
            let expected = try jsonRows(single.stdout)
            XCTAssertEqual(ours.count, expected.count, "row \(number): \(arguments)", line: line)
            for (mine, theirs) in zip(ours, expected) {
                var stripped = mine
                stripped["input"] = nil
                XCTAssertEqual(NSDictionary(dictionary: stripped), NSDictionary(dictionary: theirs), "row \(number)", line: line)
            }
            answered += expected.count
            let singleCSV = try transit([command] + arguments + extra + ["--format", "csv"], db: db)
            expectedCSV += singleCSV.stdout.split(separator: "\r\n").dropFirst().map { "\(number),\($0)" }
        }
        XCTAssertGreaterThan(answered, 0, "the good rows have answers", line: line)
        XCTAssertEqual(batch.count, answered, "nothing but the answers, in input order", line: line)
        XCTAssertEqual(batch.compactMap { $0["input"] as? Int }, batch.compactMap { $0["input"] as? Int }.sorted(), line: line)
        let csvLines = csv.stdout.split(separator: "\r\n").map(String.init)
        XCTAssertEqual(csvLines.first?.hasPrefix("input,feed,"), true, csv.stdout, line: line)
        XCTAssertEqual(Array(csvLines.dropFirst()), expectedCSV, line: line)
        if failed > 0 {
            XCTAssertTrue(json.stderr.contains("\(failed) of \(singles.count) rows could not be answered"), json.stderr, line: line)
        }
    }

    func testNearbyBatchEqualsTheSingleAnswersWithABadRowInTheMiddle() throws {
        let directory = TemporaryDirectory()
        let file = try directory.write("points.csv", """
            lat,lon,radius,limit,label
            52.5249,13.3692,2500,,main station
            52.4992,13.4282,,1,görlitzer
            fifty-two,13.4,,,not a number
            52.52,13.41
            52.45,13.5,50,0,nowhere
            91,13.4,,,off the planet
            52.5,13.5,0,,no radius
            52.518,13.395,3000,3,"market, north"

            """)
        try assertBatchEqualsSingles(command: "nearby", file: file, singles: [
            ["52.5249", "13.3692", "--radius", "2500"],
            ["52.4992", "13.4282", "--limit", "1"],
            nil,
            nil,
            ["52.45", "13.5", "--radius", "50", "--limit", "0"],
            nil,
            nil,
            ["52.518", "13.395", "--radius", "3000", "--limit", "3"],
        ])
        let run = try transit(["nearby", "--input", file])
        XCTAssertTrue(run.stderr.contains("ignoring column label"), run.stderr)
        XCTAssertTrue(run.stderr.contains("row 3 (line 4): lat 'fifty-two' is not a number"), run.stderr)
        XCTAssertTrue(run.stderr.contains("row 4 (line 5): 2 fields where the header has 5"), run.stderr)
        XCTAssertTrue(run.stderr.contains("row 6 (line 7): lat 91 is outside [-90, 90] degrees"), run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("Row 1: 52.5249, 13.3692\nDistance"), run.stdout)
        XCTAssertTrue(run.stdout.contains("Row 5: 52.45, 13.5\nNo stops within 50 m of 52.45, 13.5\n"), run.stdout)
    }

    func testNearbyBatchTakesTheFlagsForMissingColumns() throws {
        let directory = TemporaryDirectory()
        let file = try directory.write("points.csv", "lon,lat\n13.3692,52.5249\n13.4282,52.4992\n")
        try assertBatchEqualsSingles(command: "nearby", file: file, singles: [
            ["52.5249,13.3692"], ["52.4992,13.4282"],
        ], extra: ["--radius", "1000", "--platforms", "--limit", "2"])
    }

    func testDeparturesBatchEqualsTheSingleAnswersWithAnUnknownStopInTheMiddle() throws {
        let directory = TemporaryDirectory()
        let file = try directory.write("questions.csv", """
            stop_id,lat,lon,radius,at,within,limit
            HBF,,,,2026-03-02 07:55,60,
            GOR,,,,2026-03-02 23:59,10,
            NOPE,,,,2026-03-02 08:00,,
            ,52.5249,13.3692,300,2026-03-02 08:00,,1
            HBF,,,,2026-03-02 25:00,,
            ,52.4992,13.4282,,2026-03-02T23:00:00Z,90,
            HBF,52.5,13.4,,2026-03-02 08:00,,
            lindenau:HBF,,,,2026-03-02 08:20,,

            """)
        try assertBatchEqualsSingles(command: "departures", file: file, singles: [
            ["--stop", "HBF", "--at", "2026-03-02 07:55", "--within", "60"],
            ["--stop", "GOR", "--at", "2026-03-02 23:59", "--within", "10"],
            nil,
            ["--near", "52.5249,13.3692", "--radius", "300", "--at", "2026-03-02 08:00", "--limit", "1"],
            nil,
            ["--near", "52.4992,13.4282", "--at", "2026-03-02T23:00:00Z", "--within", "90"],
            nil,
            ["--stop", "lindenau:HBF", "--at", "2026-03-02 08:20"],
        ])
        let run = try transit(["departures", "--input", file, "--format", "json"])
        XCTAssertTrue(run.stderr.contains("row 3 (line 4): no stop has stop_id 'NOPE'"), run.stderr)
        XCTAssertTrue(run.stderr.contains("row 5 (line 6): at: 25:00 is not a time of day"), run.stderr)
        XCTAssertTrue(run.stderr.contains("row 7 (line 8): give stop_id or lat,lon, not both"), run.stderr)
        let gor = try jsonRows(run.stdout).filter { $0["input"] as? Int == 2 }
        XCTAssertEqual(gor.first?["gtfs_time"] as? String, "24:05:00", "past midnight, as the single answer")
    }

    func testDeparturesBatchWithoutAnAtColumnUsesTheFlag() throws {
        let directory = TemporaryDirectory()
        let file = try directory.write("stops.csv", "stop_id\nHBF\nGOR\n")
        try assertBatchEqualsSingles(command: "departures", file: file, singles: [
            ["--stop", "HBF"], ["--stop", "GOR"],
        ], extra: ["--at", "2026-03-02 07:30", "--within", "120"])
    }

    func testSearchBatchReadsStandardInput() throws {
        let db = try DemoDatabase.path()
        let directory = TemporaryDirectory()
        let file = try directory.write("names.csv", "text,limit\nlodz,\ngorli strasse,\n!!,\nstr,1\nnothing like it,\n")
        let piped = try CommandRun.run("/bin/sh", ["-c", "cat \"$1\" | \"$2\" search --input - --format json --db \"$3\"", "sh",
                                                   file, Paths.transitBinary, db])
        let direct = try transit(["search", "--input", file, "--format", "json"])
        XCTAssertEqual(piped.status, 1, piped.stderr)
        XCTAssertEqual(piped.stdout, direct.stdout, "standard input reads like a file")
        XCTAssertTrue(piped.stderr.contains("standard input: row 3 (line 4): the search text has no letters or digits"), piped.stderr)
        try assertBatchEqualsSingles(command: "search", file: file, singles: [
            ["lodz"], ["gorli strasse"], nil, ["str", "--limit", "1"], ["nothing like it"],
        ])
    }

    func testGeoJSONFeaturesCarryTheirRow() throws {
        let directory = TemporaryDirectory()
        let file = try directory.write("points.csv", "lat,lon\n52.5249,13.3692\n52.4992,13.4282\n")
        let run = try transit(["nearby", "--input", file, "--radius", "300", "--format", "geojson"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let collection = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let features = try XCTUnwrap(collection["features"] as? [[String: Any]])
        let properties = features.compactMap { $0["properties"] as? [String: Any] }
        XCTAssertEqual(properties.map { $0["input"] as? Int }, [1, 2])
        XCTAssertEqual(properties.map { $0["stop_id"] as? String }, ["HBF", "GOR"])
        let departures = try transit(["departures", "--input", try directory.write("stops.csv", "stop_id,at\nGOR,2026-03-02 23:59\n"),
                                      "--within", "10", "--format", "geojson"])
        let departureFeatures = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(departures.stdout.utf8)) as? [String: Any])?["features"] as? [[String: Any]])
        XCTAssertEqual(departureFeatures.count, 1, departures.stdout)
        XCTAssertEqual((departureFeatures.first?["geometry"] as? [String: Any])?["coordinates"] as? [Double], [13.4282, 52.4992], "a departure is drawn at its stop")
    }

    func testAFileThatCannotBeReadOrLacksColumnsIsOneLine() throws {
        let directory = TemporaryDirectory()
        let missing = try transit(["nearby", "--input", directory.file("nope.csv")])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.hasSuffix("nope.csv: cannot be read: No such file or directory\n"), missing.stderr)
        let noLon = try transit(["nearby", "--input", try directory.write("a.csv", "lat,longitude\n52.5,13.4\n")])
        XCTAssertEqual(noLon.status, 1)
        XCTAssertTrue(noLon.stderr.contains("the header has no column lon (nearby reads lat,lon[,radius][,limit])"), noLon.stderr)
        XCTAssertEqual(noLon.stdout, "", "nothing answered from a file of the wrong shape")
        let noStops = try transit(["departures", "--input", try directory.write("b.csv", "at\n2026-03-02 08:00\n")])
        XCTAssertEqual(noStops.status, 1)
        XCTAssertTrue(noStops.stderr.contains("the header has neither stop_id nor lat and lon"), noStops.stderr)
        let openQuote = try transit(["search", "--input", try directory.write("c.csv", "text\nlodz\n\"gorli\n")])
        XCTAssertEqual(openQuote.status, 1)
        XCTAssertTrue(openQuote.stderr.contains("c.csv line 3: a quoted field is never closed"), openQuote.stderr)
        let empty = try transit(["search", "--input", try directory.write("d.csv", "text\n"), "--format", "json"])
        XCTAssertEqual(empty.status, 0, empty.stderr)
        XCTAssertEqual(empty.stdout, "[]\n")
        XCTAssertEqual(try transit(["nearby", "52.5", "13.4", "--input", directory.file("a.csv")]).status, 64)
        XCTAssertEqual(try transit(["search", "lodz", "--input", directory.file("c.csv")]).status, 64)
        XCTAssertEqual(try transit(["departures", "--stop", "HBF", "--input", directory.file("b.csv")]).status, 64)
    }

    func testVilniusBatchEqualsTheSingleAnswers() throws {
        guard let feed = Paths.sharedFeed("vilnius.zip") else {
            throw XCTSkip("../shared/feeds/vilnius.zip is absent: the vilnius batch test is skipped")
        }
        let db = try DemoDatabase.path(feed: feed)
        let directory = TemporaryDirectory()
        // Points on a grid over the city centre, and departures from them at several hours.
        var points: [(String, String)] = []
        for latitude in stride(from: 54.670, through: 54.700, by: 0.006) {
            for longitude in stride(from: 25.250, through: 25.300, by: 0.0125) {
                points.append((String(format: "%.3f", latitude), String(format: "%.4f", longitude)))
            }
        }
        let nearby = try directory.write("points.csv", "lat,lon\n" + points.map { "\($0.0),\($0.1)" }.joined(separator: "\n") + "\n")
        try assertBatchEqualsSingles(command: "nearby", file: nearby, singles: points.map { [$0.0, $0.1] },
                                     extra: ["--radius", "600"], db: db)
        let hours = ["06:10", "08:00", "12:45", "17:30", "23:50"]
        let questions = points.prefix(10).enumerated().map { ($0.element, "2015-09-08 " + hours[$0.offset % hours.count]) }
        let departures = try directory.write("departures.csv", "lat,lon,at\n" + questions.map { "\($0.0.0),\($0.0.1),\($0.1)" }.joined(separator: "\n") + "\n")
        try assertBatchEqualsSingles(command: "departures", file: departures,
                                     singles: questions.map { ["--near", "\($0.0.0),\($0.0.1)", "--at", $0.1] }, db: db)
    }
}
