import ArgumentParser
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// `transit realtime SOURCE...`: GTFS-Realtime messages (trip updates, vehicle positions, alerts)
/// stored for a feed, replacing what was stored before, in one transaction.
///
/// The work is done by `transit-realtime`, installed beside `transit` (exec, as `transit import`
/// runs `transit-import`), so the protobuf runtime stays out of the query commands' start-up.
struct RealtimeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realtime",
        _superCommandName: "transit",
        abstract: "Read GTFS-Realtime messages (trip updates, vehicles, alerts) into the database.",
        discussion: """
            Each SOURCE is a file or an http(s) URL of one binary GTFS-Realtime FeedMessage (FULL_DATASET; a DIFFERENTIAL message is refused); --header is sent with every request (many agencies want a key). Trip updates, vehicle positions and alerts are often published separately: give them together. Everything read replaces, in one transaction, the realtime data stored for the feed (--feed NAME, needed when the database holds several feeds).
            Trip updates are matched to the trip runs they apply to: the trip_id on its start_date, or without one, on the day of the message's timestamp or the day before, whichever run starts nearer to it. Those that name no trip of the feed are counted and a few shown, never an error. Unknown fields and extensions (the New York subway's, for one) are skipped.
            A source that is missing, empty, truncated or not a FeedMessage, or a failed download, is one line and exit 1, and the stored data stays as it was.
            Examples: transit realtime trip-updates.pb vehicles.pb alerts.pb
                      transit realtime updates.pb --feed mta --format json
                      transit realtime https://example.org/gtfs-rt/trip-updates --header "X-Api-Key: KEY" --every 30
            """,
        version: TransitCommand.version
    )

    @Argument(help: ArgumentHelp("Files or http(s) URLs of binary GTFS-Realtime FeedMessages.", valueName: "source"), completion: .file())
    var sources: [String] = []

    @Option(name: .long, help: ArgumentHelp("The feed the realtime data belongs to (needed when the database holds several).", valueName: "name"),
            completion: Completion.feedNames)
    var feed: String?

    @Option(name: .long, parsing: .unconditionalSingleValue, help: ArgumentHelp("Send this HTTP header with every request (a feed behind an API key); repeatable.", valueName: "name: value"))
    var header: [String] = []

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Read the sources again every SECONDS, each round stored whole, until Ctrl-C; a failed round is said and the last good data kept.", valueName: "seconds"))
    var every: Int?

    @Option(name: .long, help: "Summary format: table (default) or json.")
    var format: OutputFormat = .table

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        guard !sources.isEmpty else { throw ValidationError("give one or more GTFS-Realtime files") }
        if let feed, !FeedName.isValid(feed) { throw ValidationError("--feed '\(feed)' is not a feed name (they use only \(FeedName.alphabet)); `transit feeds` lists them") }
        if let every, every < 1 { throw ValidationError("--every takes a number of seconds, 1 or more") }
        guard format == .table || format == .json else { throw ValidationError("--format takes table or json for the summary") }
        for source in sources {
            let lowercased = source.lowercased()
            guard lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://") else { continue }
            let rest = source.drop { $0 != ":" }.dropFirst(3)
            if rest.isEmpty || rest.hasPrefix("/") || rest.contains(" ") { throw ValidationError("\(source) is not a URL transit can download (it names no host)") }
        }
        for header in header where !header.contains(":") || header.hasPrefix(":") {
            throw ValidationError("--header takes \"NAME: VALUE\", got '\(header)'")
        }
    }

    func run() throws {
        let helper = try helperPath("transit-realtime")
        var arguments = [helper] + sources + ["--db", database.path, "--format", format.rawValue]
        if let feed { arguments += ["--feed", feed] }
        if let every { arguments += ["--every", String(every)] }
        for header in header { arguments += ["--header", header] }
        let cArguments = arguments.map { strdup($0) } + [nil]
        execv(helper, cArguments)
        throw HelperMissing(path: helper, reason: String(cString: strerror(errno)))
    }
}
