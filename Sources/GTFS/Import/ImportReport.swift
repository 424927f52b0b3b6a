/// What an import did: rows per table, rows skipped and why (with the first examples), and time.
public struct ImportReport: Sendable {
    /// Rows written per table, in the order the tables were loaded.
    public internal(set) var rowCounts: [(table: String, rows: Int)] = []
    /// Rows skipped (or references dropped), by reason, in the order first met.
    public internal(set) var skipped: [SkippedRows] = []
    /// Wall-clock seconds of the whole import.
    public internal(set) var seconds: Double = 0
    /// Seconds spent in each step (files, interpolation, each index), for `--timings`.
    public internal(set) var phases: [(name: String, seconds: Double)] = []
    /// Stop times whose missing times were interpolated.
    public internal(set) var interpolatedStopTimes = 0
    /// Things the user should know that are not skipped rows (a file read as Windows-1252).
    public internal(set) var notes: [String] = []
    /// The name the feed was stored under.
    public internal(set) var feedName = ""
    /// True when a feed of that name was there before and has been replaced.
    public internal(set) var replacedFeed = false
    /// How many other feeds the database holds (untouched by the import).
    public internal(set) var otherFeeds = 0

    /// The number of rows written to `table`.
    public func rows(in table: String) -> Int {
        rowCounts.first { $0.table == table }?.rows ?? 0
    }

    /// How many rows were skipped for any reason.
    public var skippedTotal: Int { skipped.reduce(0) { $0 + $1.count } }

    /// How many examples are kept per reason.
    static let exampleLimit = 3

    mutating func note(_ text: String) { notes.append(text) }

    mutating func skip(_ reason: String, example: @autoclosure () -> String) {
        if let index = skipped.firstIndex(where: { $0.reason == reason }) {
            skipped[index].count += 1
            if skipped[index].examples.count < ImportReport.exampleLimit { skipped[index].examples.append(example()) }
        } else {
            skipped.append(SkippedRows(reason: reason, count: 1, examples: [example()]))
        }
    }
}

/// Rows left out for one reason.
public struct SkippedRows: Sendable {
    /// Why, for example "stop_times.txt: stop_id not in stops.txt".
    public let reason: String
    /// How many.
    public internal(set) var count: Int
    /// The first few, as "line 12: stop_id 'X'".
    public internal(set) var examples: [String]
}

/// Receives progress while an import runs (the CLI draws it on a terminal).
public protocol ImportProgress: AnyObject {
    /// `rows` rows of `file` are read so far.
    func update(file: String, rows: Int)
    /// A step that is not reading a file ("building indexes").
    func step(_ description: String)
}
