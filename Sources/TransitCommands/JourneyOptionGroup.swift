import ArgumentParser
import GTFS

/// The options `plan` and `reach` share: how far and how fast a rider walks, how many rides at
/// most, realtime.
struct JourneyOptionGroup: ParsableArguments {
    /// The planner's defaults (`JourneyOptions`), which the options and the direct reader start from.
    static let defaults = JourneyOptions()

    @Option(name: .customLong("max-rides"), parsing: .unconditional, help: "At most this many rides (0 to 16).")
    var maxRides: Int = JourneyOptionGroup.defaults.maximumRides

    @Option(name: .customLong("max-walk"), parsing: .unconditional, help: ArgumentHelp("Walk at most this far between two rides (0 to 10000).", valueName: "metres"))
    var maxWalk: Double = JourneyOptionGroup.defaults.maximumWalk

    @Option(name: .customLong("max-access-walk"), parsing: .unconditional, help: ArgumentHelp("Walk at most this far between a LAT,LON point and a stop, at either end, or from point to point (0 to 10000).", valueName: "metres"))
    var maxAccessWalk: Double = JourneyOptionGroup.defaults.maximumAccessWalk

    @Option(name: .customLong("walk-speed"), parsing: .unconditional, help: ArgumentHelp("Walking speed (above 0, at most 10).", valueName: "m/s"))
    var walkSpeed: Double = JourneyOptionGroup.defaults.walkSpeed

    @Option(name: .customLong("max-age"), parsing: .unconditional, help: ArgumentHelp("Apply stored realtime data only when its messages are at most this many minutes older than the time asked.", valueName: "minutes"))
    var maxAge: Int = RealtimeFreshness.defaultMaxAge

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

extension JourneyOptionGroup: DirectlyReadableOptions {
    static func withDefaults() -> JourneyOptionGroup {
        var options = JourneyOptionGroup()
        options.maxRides = defaults.maximumRides
        options.maxWalk = defaults.maximumWalk
        options.maxAccessWalk = defaults.maximumAccessWalk
        options.walkSpeed = defaults.walkSpeed
        options.maxAge = RealtimeFreshness.defaultMaxAge
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
