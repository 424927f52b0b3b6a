import ArgumentParser
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// `transit alerts`: service alerts read by `transit realtime`, active at a moment.
struct AlertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alerts",
        _superCommandName: "transit",
        abstract: "List service alerts read by `transit realtime` that are active at --at, all or those concerning a stop, a place or a route.",
        discussion: """
            An alert is active when --at (default: now) is in one of its active periods, or always when it gives none. With --stop (a station includes its platforms) or --near, the alerts whose informed entities concern those stops, their stations, the routes calling there, their route types or agencies; with --route, that route, its type or its agency (an entity concerns them when every field it gives does). Text is in --lang, else the feed's language (feed_info.txt), else the text without a language, else the first.
            Examples: transit alerts --stop HBF
                      transit alerts --route 1 --lang de --format json
            """,
        version: TransitCommand.version
    )

    @OptionGroup var stops: StopChoiceOptions

    @Option(name: .long, help: ArgumentHelp("Only alerts concerning this route: route_id, or FEED:route_id.", valueName: "id"))
    var route: String?

    @Option(name: .long, help: ArgumentHelp("Active at this time, as departures' --at (default: now).", valueName: "time"))
    var at: String?

    @Option(name: .long, help: ArgumentHelp("The language of the texts (BCP-47, like en or de).", valueName: "code"))
    var lang: String?

    @OptionGroup var options: QueryOptions

    func validate() throws {
        if route != nil && (stops.stop != nil || stops.near != nil) { throw ValidationError("give --stop, --near or --route, not several") }
        if let at { _ = try WallClockTime(at) }
        if options.format == .geojson { throw ValidationError("alerts have no single place to map: use --format table, json or csv") }
    }

    func run() throws {
        let transit = try options.open()
        var listing = AlertListing()
        listing.language = lang
        if let keys = try stops.boardingKeys(in: transit, format: options.format) {
            listing.concerning = try AlertListing.Scope.of(stopKeys: keys, in: transit)
        } else if let route {
            do {
                listing.concerning = try AlertListing.Scope.of(route: try transit.route(named: route).key, in: transit)
            } catch let error as TransitError {
                throw usageError(error)
            }
        }
        let zone = transit.selectedFeeds.first?.timeZone ?? AgencyTimeZone(identifier: "UTC")!
        let instant = try at.map { try WallClockTime($0).instant(in: zone) } ?? Int(time(nil))
        let alerts = try listing.run(on: transit, at: instant).map { ShownAlert(alert: $0, zone: zone) }
        options.write(alerts, from: transit, emptyMessage: "No active alerts" + (stops.place.map { " for \($0)" } ?? route.map { " for route \($0)" } ?? ""))
    }
}

extension AlertsCommand: DirectlyReadableCommand {
    static func withDefaults() -> AlertsCommand {
        var command = AlertsCommand()
        command.stops = .withDefaults()
        command.route = nil
        command.at = nil
        command.lang = nil
        command.options = .withDefaults()
        return command
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        switch name {
        case "route": line.set(&route)
        case "at": line.set(&at)
        case "lang": line.set(&lang)
        default: stops.read(option: name, from: &line) ?? options.read(option: name, from: &line)
        }
    }

    mutating func validateAll() throws {
        try stops.validateAll()
        try options.validateAll()
        try validate()
    }
}

/// An alert as `alerts` prints it.
struct ShownAlert: OutputRecord {
    let alert: ServiceAlert
    let zone: AgencyTimeZone
    var feed: String { alert.feed }

    static let fieldNames = ["alert_id", "cause", "effect", "header", "description", "url", "active_from", "active_until", "entities"]
    var fieldValues: [OutputValue] {
        func text(_ value: String?) -> OutputValue { value.map { .text($0) } ?? .null }
        return [.text(alert.alertID), text(alert.cause), text(alert.effect), text(alert.header), text(alert.description), text(alert.url),
                alert.activeFrom.map { .text(zone.localTime(of: $0).iso8601) } ?? .null,
                alert.activeUntil.map { .text(zone.localTime(of: $0).iso8601) } ?? .null, .list(alert.entities)]
    }
    var coordinate: (latitude: Double, longitude: Double)? { nil }
    static let tableHeaders = ["Alert", "Effect", "Concerns", "Until"]
    var tableCells: [String] {
        [alert.header ?? alert.description ?? alert.alertID, alert.effect.map { String($0.lowercased().map { $0 == "_" ? " " : $0 }) } ?? "",
         alert.entities.joined(separator: "; "), alert.activeUntil.map { zone.localTime(of: $0).iso8601 } ?? ""]
    }
}
