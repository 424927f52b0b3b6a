import ArgumentParser
import GTFS

/// `transit search TEXT`: stops by name, typed loosely.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        _superCommandName: "transit",
        abstract: "Find stops by name: case, accents and word endings do not matter.",
        discussion: """
            Every word typed must begin some word of the stop's name: "u gorli" finds "U Görlitzer Bahnhof", "lodz" finds "Łódź Fabryczna". Names that begin with the whole text come first. Same stop listing rule and --platforms as `transit nearby`.
            Stops that share a name are told apart by what calls there: the routes boarding there and where they go (headsigns), most trips first (JSON routes and towards; null for the other rows). --routes shows them for every stop found (it reads each stop's stop times).
            Many names in one run: --input names.csv (columns text[,limit]; - reads standard input) answers every row, in order, each record with its row number as `input`.
            """,
        version: TransitCommand.version
    )

    @Argument(help: ArgumentHelp("What to look for.", valueName: "text"))
    var text: String?

    @OptionGroup var listing: StopListingOptions

    @Flag(name: .long, help: "Show the routes and headsigns of every stop found, not only of stops that share a name.")
    var routes = false

    @OptionGroup var batch: BatchOptions

    @OptionGroup var options: QueryOptions

    func validate() throws {
        if batch.input != nil {
            guard text == nil else { throw ValidationError("give either a text or --input, not both") }
            return
        }
        guard let text else { throw ValidationError("give the text to look for, or --input FILE") }
        _ = try SearchCommand.query(text)
    }

    func run() throws {
        let transit = try options.open()
        if let input = batch.input {
            try runBatch(input: input, columns: ["text", "limit"], format: options.format, in: transit,
                         checkHeader: { columns in
                             if !columns.contains("text") { throw BatchInputError("the header has no column text (search reads text[,limit])") }
                         }, answer: { row in
                             guard let text = try row.text("text") else { throw BatchInputError("text is empty") }
                             return try stops(named: text, limit: try row.limit(else: listing.limit), in: transit)
                         })
            return
        }
        let answer = try stops(named: text ?? "", limit: listing.limit, in: transit)
        options.write(answer.records, from: transit, emptyMessage: answer.emptyMessage)
    }

    /// The search for `text`; a text without letters or digits is a usage error.
    private static func query(_ text: String) throws -> StopSearchQuery {
        do {
            return try StopSearchQuery(text: text)
        } catch let problem as StopSearchQuery.Problem {
            throw ValidationError(problem.description)
        }
    }

    /// One question's answer: the stops whose names match `text`.
    private func stops(named text: String, limit: Int, in transit: TransitDatabase) throws -> BatchAnswer<FoundStop> {
        var query = try SearchCommand.query(text)
        query.limit = limit
        query.platforms = listing.platforms
        let found = try query.run(on: transit)
        // Twins (one name, several stops of one feed) are told apart by what calls there; stops of
        // different feeds are told apart by their feed.
        let names = Dictionary(found.map { ("\(FeedKeys.feed(of: $0.key)) \($0.name)", 1) }, uniquingKeysWith: +)
        let told = routes ? found : found.filter { names["\(FeedKeys.feed(of: $0.key)) \($0.name)", default: 0] > 1 }
        let services = try StopServices.of(told, in: transit)
        let stops = found.map { FoundStop(stop: $0, feed: transit.feedName(ofKey: $0.key), services: services[$0.key]) }
        return BatchAnswer(records: stops, question: "\"\(text)\"", emptyMessage: "No stop name matches \"\(text)\"")
    }
}

extension SearchCommand: DirectlyReadableCommand {
    static func withDefaults() -> SearchCommand {
        var command = SearchCommand()
        command.text = nil
        command.listing = .withDefaults()
        command.routes = false
        command.batch = .withDefaults()
        command.options = .withDefaults()
        return command
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        if name == "routes" { return line.setFlag(&routes) }
        return listing.read(option: name, from: &line) ?? batch.read(option: name, from: &line) ?? options.read(option: name, from: &line)
    }

    static var positionalArguments: ClosedRange<Int> { 0...1 }

    mutating func read(argument: String) {
        text = argument
    }

    mutating func validateAll() throws {
        try listing.validateAll()
        try batch.validateAll()
        try options.validateAll()
        try validate()
    }
}

/// A stop as `search` prints it.
struct FoundStop: OutputRecord {
    let stop: Stop
    let feed: String
    /// What calls there, when asked for (`--routes`) or needed (a name several stops share).
    let services: StopServices?
    static let fieldNames = ["stop_id", "name", "lat", "lon", "platform_code", "location_type", "routes", "towards"]
    var fieldValues: [OutputValue] {
        [.text(stop.stopID), .text(stop.name), stop.latitude.map { .number($0, decimals: 7) } ?? .null,
         stop.longitude.map { .number($0, decimals: 7) } ?? .null, stop.platformCode.map { .text($0) } ?? .null, .integer(stop.locationType),
         services.map { .list($0.routes) } ?? .null, services.map { .list($0.towards) } ?? .null]
    }
    var coordinate: (latitude: Double, longitude: Double)? {
        guard let latitude = stop.latitude, let longitude = stop.longitude else { return nil }
        return (latitude, longitude)
    }
    static let tableHeaders = ["Stop", "stop_id", "Routes", "Towards"]
    static let omittedWhenEmpty: Set<Int> = [2, 3]
    static let truncatable: Set<Int> = [3]
    var tableCells: [String] {
        [stop.name + (stop.locationType == 1 ? " (station)" : stop.platformCode.map { " (platform \($0))" } ?? ""), stop.stopID,
         services.map { FoundStop.shortList($0.routes, 8) } ?? "", services.map { FoundStop.shortList($0.towards, 3) } ?? ""]
    }

    /// The first `count` of `names`, then "…" when there are more.
    private static func shortList(_ names: [String], _ count: Int) -> String {
        names.prefix(count).joined(separator: ", ") + (names.count > count ? ", …" : "")
    }
}
