import ArgumentParser
import GTFS

/// The options `plan` and `reach` share: how far and how fast a rider walks, how many rides at
/// most, realtime.
struct JourneyOptionGroup: ParsableArguments {
    @Option(name: .customLong("max-rides"), parsing: .unconditional, help: "At most this many rides (0 to 16).")
    var maxRides: Int = 5

    @Option(name: .customLong("max-walk"), parsing: .unconditional, help: ArgumentHelp("Walk at most this far between two rides (0 to 10000).", valueName: "metres"))
    var maxWalk: Double = 500

    @Option(name: .customLong("max-access-walk"), parsing: .unconditional, help: ArgumentHelp("Walk at most this far between a LAT,LON point and a stop, at either end, or from point to point (0 to 10000).", valueName: "metres"))
    var maxAccessWalk: Double = 1000

    @Option(name: .customLong("walk-speed"), parsing: .unconditional, help: ArgumentHelp("Walking speed (above 0, at most 10).", valueName: "m/s"))
    var walkSpeed: Double = 1.33

    @Option(name: .customLong("max-age"), parsing: .unconditional, help: ArgumentHelp("Apply stored realtime data only when its messages are at most this many minutes older than the time asked.", valueName: "minutes"))
    var maxAge: Int = 30

    @Flag(name: .customLong("no-realtime"), help: "Plan on the timetable, leaving stored realtime data aside.")
    var noRealtime = false

    func validate() throws {
        guard (0...16).contains(maxRides) else { throw ValidationError("--max-rides takes 0 to 16 rides, got \(maxRides)") }
        guard maxWalk.isFinite, (0...10_000).contains(maxWalk) else { throw ValidationError("--max-walk takes 0 to 10000 metres, got \(formatDecimal(maxWalk, decimals: 1))") }
        guard maxAccessWalk.isFinite, (0...10_000).contains(maxAccessWalk) else {
            throw ValidationError("--max-access-walk takes 0 to 10000 metres, got \(formatDecimal(maxAccessWalk, decimals: 1))")
        }
        guard walkSpeed.isFinite, walkSpeed > 0, walkSpeed <= 10 else {
            throw ValidationError("--walk-speed takes metres per second above 0 and at most 10, got \(formatDecimal(walkSpeed, decimals: 2))")
        }
        guard maxAge >= 0 else { throw ValidationError("--max-age takes minutes, 0 or more") }
    }

    /// The settings of a question about the moment `instant`: the feeds of `transit` whose
    /// stored realtime data is fresh then apply it, unless `--no-realtime`.
    func journeyOptions(at instant: Int, in transit: TransitDatabase) throws -> JourneyOptions {
        var options = JourneyOptions()
        options.maximumRides = maxRides
        options.maximumWalk = maxWalk
        options.maximumAccessWalk = maxAccessWalk
        options.walkSpeed = walkSpeed
        if !noRealtime {
            let fresh = try RealtimeFreshness(maxAgeMinutes: maxAge).freshFeeds(among: transit.selectedFeeds, at: instant, in: transit)
            options.realtimeFeeds = Set(fresh.keys)
        }
        return options
    }
}

/// A journey's end as typed: a stop id (`FEED:ID` where ambiguous), a station, or `LAT,LON`.
struct JourneyEnd {
    let place: JourneyPlace
    /// The feed of the stop, when it is one (its zone reads the times typed).
    let feedKey: Int?
    let text: String
    /// What to say when the text was read as a stop's name (no stop has it as its id).
    let nameNote: AnswerNote?

    /// Checks the positional words: exactly one per name (an unknown `--option` among them is
    /// named as such, since negative degrees must pass as words; `--` ends the options).
    static func validate(_ typed: [String], names: [String]) throws {
        let words = try PositionalWords(typed).words
        guard words.count == names.count else {
            throw ValidationError("expected \(names.joined(separator: " and ")) (stop ids, stations or LAT,LON), got \(words.isEmpty ? "nothing" : "'" + words.joined(separator: " ") + "'")")
        }
    }

    /// Reads `text` (called `name` in messages): a coordinate when it is two numbers, else a stop.
    init(_ text: String, name: String, in transit: TransitDatabase) throws {
        self.text = text
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, parts.allSatisfy({ Double(String($0).trimmingSpaces) != nil }) {
            let point = try Coordinate(text, option: name)
            place = .point(latitude: point.latitude, longitude: point.longitude)
            feedKey = nil
            nameNote = nil
            return
        }
        do {
            let choice = try transit.stops(identifiedOrCalled: text)
            place = .stops(keys: try transit.boardingKeys(for: choice))
            feedKey = choice.stops[0].feedKey
            nameNote = choice.isByName ? AnswerNote(readAsName: choice, about: name) : nil
        } catch let error as TransitError {
            throw usageError(error, about: name)
        }
    }
}

/// `transit plan`: how to get from A to B.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        _superCommandName: "transit",
        abstract: "Plan journeys from A to B: the fastest with each number of rides.",
        discussion: """
            FROM and TO are stop ids (FEED:ID where several feeds have one), stations (any of their platforms, reached in 0 s), or LAT,LON points (walked to and from boarding points within --max-access-walk, 1000 m; two points that near are also one walk, kept when it arrives first). With --at T, the answers are the Pareto set over rides and arrival: for each number of rides k up to --max-rides, the earliest arrival leaving at or after T with at most k rides, kept when it is earlier than with fewer; each is shown by the journey that leaves latest for that arrival. With --arrive-by T, the mirror: the latest departures arriving by T, each shown by the journey arriving earliest among those leaving then.
            A journey is [walk] ride [walk] ride … [walk]: calls happen at noon − 12 h of their service date in the agency's zone plus the GTFS time (trips of the day before, the day and the day after count, frequencies.txt runs too); a ride boards where pickup_type is not 1 and leaves where drop_off_type is not 1. transfers.txt rows naming no route or trip apply (a station's rows to each of its platforms): type 2 sets a minimum time, type 3 forbids; without a row, stops within --max-walk are a walk of ⌈distance / --walk-speed⌉ seconds apart. Changing at the same stop takes 0 s unless its own row says otherwise.
            The journey planner reads the timetable the import stores for it (`transit feeds upgrade` adds it to databases imported before). See docs/journeys.md.
            Examples: transit plan 0:5409 0:893 --at "2015-09-08 08:00"
                      transit plan 54.687,25.28 54.70,25.25 --arrive-by "2015-09-08 09:00" --format json
            """,
        version: TransitCommand.version
    )

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Where the journey starts and ends: stop ids, stations, or LAT,LON points (negative degrees as typed).", valueName: "from to"))
    var places: [String] = []

    var from: String { ends[0] }
    var to: String { ends[1] }

    @Option(name: .long, help: ArgumentHelp("Leave at or after this time, \"YYYY-MM-DD HH:MM[:SS]\" in the agency's time zone, or with an offset.", valueName: "time"))
    var at: String?

    @Option(name: .customLong("arrive-by"), help: ArgumentHelp("Arrive by this time instead (same forms as --at).", valueName: "time"))
    var arriveBy: String?

    @OptionGroup var journey: JourneyOptionGroup

    @Flag(name: .long, help: "List the stops each ride passes, with their times (JSON: each ride's stops).")
    var stops = false

    @OptionGroup var batch: BatchOptions

    @OptionGroup var options: QueryOptions

    func validate() throws {
        if stops, options.format != .json, options.format != .table {
            throw ValidationError("--stops lists the calls in table or json; --format \(options.format) writes the legs only")
        }
        if batch.input != nil {
            guard options.format == .json || options.format == .table else {
                throw ValidationError("--input answers in json or table; --format \(options.format) writes one question")
            }
            guard ends.isEmpty, at == nil, arriveBy == nil else {
                throw ValidationError("with --input the questions come from the file (columns from,to and at or arrive_by, optional max_rides): leave out FROM, TO, --at and --arrive-by")
            }
            return
        }
        try JourneyEnd.validate(places, names: ["FROM", "TO"])
        guard (at == nil) != (arriveBy == nil) else { throw ValidationError("give --at TIME or --arrive-by TIME (one of them)") }
        if let at { _ = try WallClockTime(at, name: "--at") }
        if let arriveBy { _ = try WallClockTime(arriveBy, name: "--arrive-by") }
    }

    func run() throws {
        let transit = try options.open()
        if let input = batch.input {
            try runJourneyBatch(input: input, columns: ["from", "to", "at", "arrive_by", "max_rides"], format: options.format, in: transit,
                                required: ["from", "to"], explain: options.explain) { row, planner in
                let origin = try JourneyEnd(try row.required("from"), name: "from", in: transit)
                let destination = try JourneyEnd(try row.required("to"), name: "to", in: transit)
                let rides = try row.integer("max_rides", range: 0...16, meaning: "a number of rides from 0 to 16")
                let zone = JourneyOutput.zone(for: [origin.feedKey, destination.feedKey], in: transit)
                let journeys: [Journey]
                switch (try row.text("at"), try row.text("arrive_by")) {
                case (let at?, nil):
                    let time = try WallClockTime(at, name: "at").instant(in: zone)
                    var settings = try journey.journeyOptions(at: time, in: transit)
                    settings.maximumRides = rides ?? settings.maximumRides
                    journeys = try planner.plan(from: origin.place, to: destination.place, at: time, options: settings)
                case (nil, let arriveBy?):
                    let time = try WallClockTime(arriveBy, name: "arrive_by").instant(in: zone)
                    var settings = try journey.journeyOptions(at: time, in: transit)
                    settings.maximumRides = rides ?? settings.maximumRides
                    journeys = try planner.plan(from: origin.place, to: destination.place, arrivingBy: time, options: settings)
                default:
                    throw BatchInputError("give at or arrive_by (one of them)")
                }
                return try JourneyOutput(transit: transit, zone: zone, listsCalls: stops)
                    .renderAnswer(journeys, as: options.format, origin: origin, destination: destination)
            }
            return
        }
        let origin = try JourneyEnd(from, name: "FROM", in: transit)
        let destination = try JourneyEnd(to, name: "TO", in: transit)
        for end in [origin, destination] { end.nameNote?.write(for: options.format) }
        let zone = JourneyOutput.zone(for: [origin.feedKey, destination.feedKey], in: transit)
        let planner = try transit.journeyPlanner()
        let time = try WallClockTime(arriveBy ?? at!, name: arriveBy == nil ? "--at" : "--arrive-by").instant(in: zone)
        let settings = try journey.journeyOptions(at: time, in: transit)
        let ask = { [arriveBy] (settings: JourneyOptions) throws -> [Journey] in
            arriveBy == nil ? try planner.plan(from: origin.place, to: destination.place, at: time, options: settings)
                : try planner.plan(from: origin.place, to: destination.place, arrivingBy: time, options: settings)
        }
        let journeys = try ask(settings)
        if options.explain { try JourneyOutput.explain(planner) }
        let output = JourneyOutput(transit: transit, zone: zone, listsCalls: stops)
        if journeys.isEmpty {
            let question = EmptyJourneyQuestion(transit: transit, ends: [("FROM", origin), ("TO", destination)],
                                                time: time, zone: zone, options: settings)
            var note = try question.noJourney(replan: ask)
            note.sentence = "No journey from \(from) to \(to) with at most \(journey.maxRides) ride\(journey.maxRides == 1 ? "" : "s") and walks of at most \(formatDistance(journey.maxWalk)) between rides \(arriveBy == nil ? "leaving at or after --at" : "arriving by --arrive-by"). " + note.sentence
            note.write(for: options.format)
        }
        writeToStandardOutput(try output.render(journeys, as: options.format, origin: origin, destination: destination))
    }
}

/// `transit reach`: where one can be within some minutes.
struct ReachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reach",
        _superCommandName: "transit",
        abstract: "List the stops reachable from a place within some minutes.",
        discussion: """
            Every boarding point whose earliest arrival, leaving FROM at --at, is within --within minutes, with that arrival and the fewest rides reaching it then (FROM's own platforms at --at with 0 rides). The same rules as `transit plan`. --format geojson draws the stops as points with their arrival and minutes (an isochrone for geojson.io or QGIS).
            Example: transit reach 0:5409 --at "2015-09-08 08:00" --within 30
            """,
        version: TransitCommand.version
    )

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Where the rider starts: a stop id, a station, or LAT,LON (negative degrees as typed).", valueName: "from"))
    var places: [String] = []

    var from: String { ends[0] }

    @Option(name: .long, help: ArgumentHelp("Leave at this time, \"YYYY-MM-DD HH:MM[:SS]\" in the agency's time zone, or with an offset.", valueName: "time"))
    var at: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Arrive within this many minutes (1 to 1440).", valueName: "minutes"))
    var within: Int = 30

    @OptionGroup var journey: JourneyOptionGroup

    @OptionGroup var batch: BatchOptions

    @OptionGroup var options: QueryOptions

    func validate() throws {
        guard (1...1440).contains(within) else { throw ValidationError("--within takes 1 to 1440 minutes, got \(within)") }
        if batch.input != nil {
            guard options.format == .json || options.format == .table else {
                throw ValidationError("--input answers in json or table; --format \(options.format) writes one question")
            }
            guard ends.isEmpty, at == nil else {
                throw ValidationError("with --input the questions come from the file (columns from, at, optional within and max_rides): leave out FROM and --at")
            }
            return
        }
        try JourneyEnd.validate(places, names: ["FROM"])
        guard let at else { throw ValidationError("give --at TIME") }
        _ = try WallClockTime(at, name: "--at")
    }

    func run() throws {
        let transit = try options.open()
        if let input = batch.input {
            try runJourneyBatch(input: input, columns: ["from", "at", "within", "max_rides"], format: options.format, in: transit,
                                required: ["from", "at"], explain: options.explain) { row, planner in
                let origin = try JourneyEnd(try row.required("from"), name: "from", in: transit)
                let rides = try row.integer("max_rides", range: 0...16, meaning: "a number of rides from 0 to 16")
                let minutes = try row.integer("within", range: 1...1440, meaning: "a number of minutes from 1 to 1440") ?? within
                let zone = JourneyOutput.zone(for: [origin.feedKey], in: transit)
                let time = try WallClockTime(try row.required("at"), name: "at").instant(in: zone)
                var settings = try journey.journeyOptions(at: time, in: transit)
                settings.maximumRides = rides ?? settings.maximumRides
                let reached = try planner.reach(from: origin.place, at: time, within: minutes * 60, options: settings)
                return try JourneyOutput(transit: transit, zone: zone).render(reached, start: time, as: options.format)
            }
            return
        }
        let at = self.at!
        let origin = try JourneyEnd(from, name: "FROM", in: transit)
        origin.nameNote?.write(for: options.format)
        let zone = JourneyOutput.zone(for: [origin.feedKey], in: transit)
        let time = try WallClockTime(at, name: "--at").instant(in: zone)
        let planner = try transit.journeyPlanner()
        let settings = try journey.journeyOptions(at: time, in: transit)
        let reached = try planner.reach(from: origin.place, at: time, within: within * 60, options: settings)
        if options.explain { try JourneyOutput.explain(planner) }
        if reached.allSatisfy({ $0.rides == 0 }) {
            // Nothing, or only walks: say why when the dates or the walk are the reason.
            let question = EmptyJourneyQuestion(transit: transit, ends: [("FROM", origin)], time: time, zone: zone,
                                                options: settings)
            if var note = try question.datesOrWalks() {
                note.sentence = "No ride from \(from) within \(within) min. " + note.sentence
                note.write(for: options.format)
            } else if reached.isEmpty {
                writeToStandardError("no stop is reachable from \(from) within \(within) min with walks of at most \(formatDistance(journey.maxWalk))\n")
            }
        }
        writeToStandardOutput(try JourneyOutput(transit: transit, zone: zone).render(reached, start: time, as: options.format))
    }
}

/// `plan --input` / `reach --input`: one question per CSV row, in one process (the planner reads
/// each pattern once for all of them). JSON is one array with one object per row in input order,
/// `{"input": n, …the answer…}`, or `{"input": n, "error": "…"}` for a bad row; the table gives
/// each answer under its row number. Bad rows are also said on stderr, counted, and make the exit
/// status 1.
func runJourneyBatch(input path: String, columns: [String], format: OutputFormat, in transit: TransitDatabase, required: [String],
                     explain: Bool, answer: (BatchRow, JourneyPlanner) throws -> String) throws {
    try transit.prepareForManyQueries()
    let planner = try transit.journeyPlanner()
    let input = BatchInput(path: path, columns: columns)
    let writer = StreamWriter()
    var first = true
    if format == .json { writer.write("[") }
    let (rows, failed) = try input.forEachRow(checkHeader: { header in
        for name in required where !header.contains(name) {
            throw BatchInputError("the header has no \(name) column (the columns are \(columns.joined(separator: ", ")))")
        }
    }, { row in
        do {
            let text = try answer(row, planner)
            switch format {
            case .json:
                // `{"journeys": …}` becomes `{"input": n, "journeys": …}`.
                writer.write((first ? "\n  " : ",\n  ") + "{\"input\": \(row.number), " + text.dropFirst().trimmingNewline)
            default:
                writer.write((first ? "" : "\n") + "# input \(row.number)\n" + text)
            }
            first = false
        } catch let error as StreamClosed {
            throw error
        } catch {
            if format == .json {
                writer.write((first ? "\n  " : ",\n  ") + "{\"input\": \(row.number), \"error\": \(JSONText.quote(BatchInput.describe(error)))}")
                first = false
            }
            throw error
        }
        if writer.failed { throw StreamClosed() }
    }, afterChunk: {
        writer.flush()
        if writer.failed { throw StreamClosed() }
    })
    if format == .json { writer.write(first ? "]\n" : "\n]\n") }
    writer.flush()
    if explain { try JourneyOutput.explain(planner) }
    if writer.failed { throw StreamClosed() }
    if failed > 0 { throw BatchRowsFailed(input: input.displayName, rows: rows, failed: failed) }
}

extension BatchRow {
    /// The text of `column`, which must not be empty.
    func required(_ column: String) throws -> String {
        guard let text = try text(column) else { throw BatchInputError("\(column) is empty") }
        return text
    }
}

private extension Substring {
    /// The text without its last newline.
    var trimmingNewline: Substring { last == "\n" ? dropLast() : self }
}

extension JourneyOptionGroup: DirectlyReadableOptions {
    static func withDefaults() -> JourneyOptionGroup {
        var options = JourneyOptionGroup()
        options.maxRides = 5
        options.maxWalk = 500
        options.maxAccessWalk = 1000
        options.walkSpeed = 1.33
        options.maxAge = 30
        options.noRealtime = false
        return options
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        switch name {
        case "max-rides": line.set(&maxRides, negativeNumbers: true)
        case "max-walk": line.set(&maxWalk, negativeNumbers: true)
        case "max-access-walk": line.set(&maxAccessWalk, negativeNumbers: true)
        case "walk-speed": line.set(&walkSpeed, negativeNumbers: true)
        case "max-age": line.set(&maxAge, negativeNumbers: true)
        case "no-realtime": line.setFlag(&noRealtime)
        default: nil
        }
    }
}

/// `plan` and `reach` read directly: places as positional words (a `LAT,LON` may begin with a
/// minus), then the journey, batch and query options they share.
protocol JourneyQueryCommand: DirectlyReadableCommand {
    var places: [String] { get set }
    var journey: JourneyOptionGroup { get set }
    var batch: BatchOptions { get set }
    var options: QueryOptions { get set }
}

extension JourneyQueryCommand {
    static var takesNegativeNumbers: Bool { true }

    /// The places typed, without the end-of-options marker `--` (validated: no unknown option).
    var ends: [String] { (try? PositionalWords(places).words) ?? places }

    mutating func read(argument: String) {
        places.append(argument)
    }

    /// Takes an option of the groups `plan` and `reach` share.
    mutating func readShared(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        journey.read(option: name, from: &line) ?? batch.read(option: name, from: &line) ?? options.read(option: name, from: &line)
    }

    mutating func validateAll() throws {
        try journey.validateAll()
        try batch.validateAll()
        try options.validateAll()
        try validate()
    }
}

extension PlanCommand: JourneyQueryCommand {
    static func withDefaults() -> PlanCommand {
        var command = PlanCommand()
        command.places = []
        command.at = nil
        command.arriveBy = nil
        command.stops = false
        command.journey = .withDefaults()
        command.batch = .withDefaults()
        command.options = .withDefaults()
        return command
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        switch name {
        case "at": line.set(&at)
        case "arrive-by": line.set(&arriveBy)
        case "stops": line.setFlag(&stops)
        default: readShared(option: name, from: &line)
        }
    }

    /// FROM and TO (none with `--input`).
    static var positionalArguments: ClosedRange<Int> { 0...2 }
}

extension ReachCommand: JourneyQueryCommand {
    static func withDefaults() -> ReachCommand {
        var command = ReachCommand()
        command.places = []
        command.at = nil
        command.within = 30
        command.journey = .withDefaults()
        command.batch = .withDefaults()
        command.options = .withDefaults()
        return command
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        switch name {
        case "at": line.set(&at)
        case "within": line.set(&within, negativeNumbers: true)
        default: readShared(option: name, from: &line)
        }
    }

    /// FROM (none with `--input`).
    static var positionalArguments: ClosedRange<Int> { 0...1 }
}
