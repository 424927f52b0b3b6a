import ArgumentParser
import GTFS

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
