import FetchRequest
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// Journey questions in one process (`transit-bench plan DATABASE QUESTIONS.csv [WALK]`): each
/// row `from,to,at` of the CSV (the questions `scripts/bench-plan-nigiri.py --write-questions`
/// asks nigiri) answered as `transit plan FROM TO --at AT --max-walk WALK` would, the whole Pareto
/// set with its legs, timed one by one; then `reach` from each origin for 30 minutes.
enum PlanBenchmark {
    static func run(database path: String, questions file: String, walk: Double) throws {
        let transit = try TransitDatabase(path: path)
        let feed = transit.feeds[0]
        var bytes: [UInt8] = []
        try FileSystem.read(file) { bytes.append(contentsOf: $0) }
        let text = String(decoding: bytes, as: UTF8.self)
        var rows: [(from: [Int], to: [Int], at: Int)] = []
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count >= 3 else { continue }
            let clock = fields[2].split(separator: " ")
            guard clock.count == 2, let date = ServiceDate(gtfs: clock[0].split(separator: "-").joined()) else { continue }
            let parts = clock[1].split(separator: ":").compactMap { Int($0) }
            guard parts.count >= 2 else { continue }
            let at = feed.timeZone.instant(ofLocal: date, hour: parts[0], minute: parts[1], second: 0)
            rows.append((try transit.boardingKeys(forStopID: fields[0]), try transit.boardingKeys(forStopID: fields[1]), at))
        }
        var options = JourneyOptions()
        options.maximumWalk = walk
        // The first question pays for reading the stop index; the planner is made first, as a
        // batch run makes it once.
        let started = monotonicSeconds()
        let planner = try JourneyPlanner(transit: transit)
        let opened = monotonicSeconds() - started
        // Each question's counters are its own: their sum is what the planner read in all.
        var read = (patterns: 0, bytes: 0)
        func count() { read = (read.patterns + planner.lastCounters.patternsRead, read.bytes + planner.lastCounters.bytesRead) }
        let plans = try timeEach(rows) { row in
            defer { count() }
            return try planner.plan(from: .stops(keys: row.from), to: .stops(keys: row.to), at: row.at, options: options).count
        }
        let reaches = try timeEach(Array(rows.prefix(100))) { row in
            defer { count() }
            return try planner.reach(from: .stops(keys: row.from), at: row.at, within: 1800, options: options).count
        }
        print("journeys, \(rows.count) questions from \(file), walks ≤ \(Int(walk)) m, ≤ 5 rides, in one process:")
        print("  planner opened (stop indexes read)        \(oneDecimal(opened * 1e6)) µs")
        report("  plan --at: Pareto set with legs", plans)
        report("  reach, 30 minutes", reaches)
        print("  patterns read \(read.patterns) (\(read.bytes) bytes) by the end")
    }
}

