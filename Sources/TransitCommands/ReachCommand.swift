import ArgumentParser
import GTFS

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

    /// `--within`'s default, in minutes.
    static let defaultWithin = 30

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Arrive within this many minutes (1 to 1440).", valueName: "minutes"))
    var within: Int = ReachCommand.defaultWithin

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

extension ReachCommand: JourneyQueryCommand {
    static func withDefaults() -> ReachCommand {
        var command = ReachCommand()
        command.places = []
        command.at = nil
        command.within = defaultWithin
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
