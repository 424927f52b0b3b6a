import ArgumentParser
import GTFS

/// `transit search TEXT`: stops by name, typed loosely.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find stops by name: case, accents and word endings do not matter.",
        discussion: """
            Every word typed must begin some word of the stop's name: "u gorli" finds "U Görlitzer Bahnhof", "lodz" finds "Łódź Fabryczna". Names that begin with the whole text come first. Same stop listing rule and --platforms as `transit nearby`.
            """
    )

    @Argument(help: ArgumentHelp("What to look for.", valueName: "text"))
    var text: String

    @OptionGroup var listing: StopListingOptions

    @OptionGroup var options: QueryOptions

    func validate() throws {
        do {
            _ = try StopSearchQuery(text: text)
        } catch let problem as StopSearchQuery.Problem {
            throw ValidationError(problem.description)
        }
    }

    func run() throws {
        let transit = try options.open()
        var query = try StopSearchQuery(text: text)
        query.limit = listing.limit
        query.platforms = listing.platforms
        let stops = try query.run(on: transit)
        options.write(stops.map { FoundStop(stop: $0, feed: transit.feedName(ofKey: $0.key)) }, from: transit, emptyMessage: "No stop name matches \"\(text)\"")
    }
}

/// A stop as `search` prints it.
struct FoundStop: OutputRecord {
    let stop: Stop
    let feed: String
    static let fieldNames = ["stop_id", "name", "lat", "lon"]
    var fieldValues: [OutputValue] {
        [.text(stop.stopID), .text(stop.name), stop.latitude.map { .number($0, decimals: 7) } ?? .null,
         stop.longitude.map { .number($0, decimals: 7) } ?? .null]
    }
    var coordinate: (latitude: Double, longitude: Double)? {
        guard let latitude = stop.latitude, let longitude = stop.longitude else { return nil }
        return (latitude, longitude)
    }
    static let tableHeaders = ["Stop", "stop_id"]
    var tableCells: [String] {
        [stop.name + (stop.locationType == 1 ? " (station)" : stop.platformCode.map { " (platform \($0))" } ?? ""), stop.stopID]
    }
}
