import ArgumentParser
import FetchRequest
import GTFS

/// Options every query command shares: `--format`, `--color`, `--explain`, `--feed` and `--db`.
struct QueryOptions: ParsableArguments {
    @Option(name: .long, help: "Output format: table (default), json, csv or geojson.")
    var format: OutputFormat = .table

    @Option(name: .long, help: ArgumentHelp("Colour tables: auto (when output is a terminal; NO_COLOR turns it off, CLICOLOR_FORCE on), always or never. JSON, CSV and GeoJSON never have colour.", valueName: "when"))
    var color: ColorChoice = .auto

    @OptionGroup var feeds: FeedOptions

    @Flag(name: .long, help: "Print each SQL statement, its bound values, SQLite's query plan, rows and time, on stderr.")
    var explain = false

    @OptionGroup var database: DatabaseOptions

    /// Opens the database read-only, with `--explain` reporting attached and `--feed` applied;
    /// sets how this run's tables are drawn.
    func open() throws -> TransitDatabase {
        // A hosted question (never a table) leaves the process-wide style alone: other threads
        // answer at the same time.
        if HostedDatabase.current == nil { TableStyle.current = format == .table ? TableStyle.resolve(color) : .plain }
        let transit = try openTransitDatabase(path: database.path, explain: explain)
        try feeds.apply(to: transit)
        return transit
    }

    /// Writes `records` to stdout in the chosen format; a table shows each record's feed when the
    /// database holds more than one.
    func write<Record: OutputRecord>(_ records: [Record], from transit: TransitDatabase, emptyMessage: String) {
        writeToStandardOutput(OutputRenderer.render(records, as: format, emptyMessage: emptyMessage, showFeed: transit.feeds.count > 1))
    }
}

extension QueryOptions: DirectlyReadableOptions {
    static func withDefaults() -> QueryOptions {
        var options = QueryOptions()
        options.format = .table
        options.color = .auto
        options.feeds = .withDefaults()
        options.explain = false
        options.database = .withDefaults()
        return options
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        switch name {
        case "format": line.set(&format)
        case "color": line.set(&color)
        case "explain": line.setFlag(&explain)
        default: feeds.read(option: name, from: &line) ?? database.read(option: name, from: &line)
        }
    }

    mutating func validateAll() throws {
        try feeds.validate()
        try database.validate()
        try validate()
    }
}

/// What `--explain` prints for one statement.
struct ExplainReport {
    let number: Int
    let executed: ExecutedRequest

    var text: String {
        var lines = ["-- statement \(number): \(executed.rowCount) row\(executed.rowCount == 1 ? "" : "s") in \(formatDecimal(executed.seconds * 1000, decimals: 3)) ms"]
        lines.append(executed.plan.statement ?? executed.request.sql)
        lines.append("-- arguments: [" + executed.request.arguments.map(\.literalDescription).joined(separator: ", ") + "]")
        lines.append(executed.plan.tree)
        for table in executed.plan.fullyScannedTables {
            lines.append("warning: the plan reads every row of \(table) (SCAN): no index serves this request")
        }
        return lines.joined(separator: "\n") + "\n\n"
    }
}

/// Opens the database at `path` read-only; with `explain`, every request is reported on stderr.
/// A hosted question (`HostedQuestion`) is given its host's connection instead, which collects
/// the requests itself.
func openTransitDatabase(path: String, explain: Bool) throws -> TransitDatabase {
    if let hosted = HostedDatabase.current { return hosted }
    try answerOnServerIfNeeded(path)
    let transit = try TransitDatabase(path: path)
    if explain {
        var number = 0
        transit.database.observer = { executed in
            number += 1
            writeToStandardError(ExplainReport(number: number, executed: executed).text)
        }
    }
    return transit
}

/// `--feed NAME`, repeatable: restrict a query to those feeds (all feeds answer without it).
struct FeedOptions: ParsableArguments {
    @Option(name: .customLong("feed"), help: ArgumentHelp("Answer from this feed only (repeat for several; default: every feed).", valueName: "name"),
            completion: Completion.feedNames)
    var names: [String] = []

    func validate() throws {
        for name in names where !FeedName.isValid(name) {
            throw ValidationError("--feed '\(name)' is not a feed name (they use only \(FeedName.alphabet)); `transit feeds` lists them")
        }
    }

    /// Restricts `transit` to the named feeds; an unknown name is a usage error listing the names.
    func apply(to transit: TransitDatabase) throws {
        do {
            try transit.restrict(toFeedsNamed: names)
        } catch let error as TransitError {
            throw ValidationError(error.description)
        }
    }
}

extension FeedOptions: DirectlyReadableOptions {
    static func withDefaults() -> FeedOptions {
        var options = FeedOptions()
        options.names = []
        return options
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        name == "feed" ? line.append(to: &names) : nil
    }
}
