import ArgumentParser
import FetchRequest
import GTFS

/// `transit feeds`: the feeds of the database, `transit feeds remove NAME`, `transit feeds upgrade`.
struct FeedsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feeds",
        _superCommandName: "transit",
        abstract: "List the feeds of the database, or remove one.",
        discussion: """
            A database holds any number of feeds, each under a name given at import (transit import FEED --feed NAME; by default the file or folder name). Every query answers from all of them unless --feed NAME picks some.
            Examples: transit feeds
                      transit feeds --format json
                      transit feeds remove caltrain
                      transit feeds upgrade        (a database written by an earlier transit, in place)
            """,
        version: TransitCommand.version,
        subcommands: [FeedsListCommand.self, FeedsRemoveCommand.self, FeedsUpgradeCommand.self],
        defaultSubcommand: FeedsListCommand.self
    )
}

/// `transit feeds [list]`: one row per feed.
struct FeedsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the feeds: agencies, time zone, rows, dates of service, when and from where imported."
    )

    @OptionGroup var options: QueryOptions

    func run() throws {
        let transit = try options.open()
        // The feed is the table's first column already.
        let listed = try transit.selectedFeeds.map { ListedFeed($0, extent: try FeedExtent.of($0, in: transit.database)) }
        writeToStandardOutput(OutputRenderer.render(listed, as: options.format,
                                                    emptyMessage: "The database holds no feeds: add one with `transit import FEED`"))
    }
}

/// `transit feeds remove NAME`: the feed and everything of it, in one transaction.
struct FeedsRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove one feed and all of its rows; the other feeds are not touched."
    )

    @Argument(help: ArgumentHelp("The feed's name (see `transit feeds`).", valueName: "name"), completion: Completion.feedNames)
    var name: String

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        do {
            try ServerChange.apply(to: database.path) { path in
                try FeedCatalog.remove(feedNamed: name, fromDatabaseAt: path)
                return true
            }
        } catch let error as TransitError {
            if case .unknownFeed = error { throw ValidationError(error.description) }
            throw error
        }
        writeToStandardOutput("Removed feed \(name) from \(StoreLocation.redacted(database.path))\n")
    }
}

/// `transit feeds upgrade`: a database written by an earlier transit brought up to this version in
/// place, in one transaction (what can be derived from its rows; schema 1 must be re-imported).
struct FeedsUpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "Bring a database written by an earlier transit up to date, in place, without re-importing (and add any index or journey planner timetable it lacks)."
    )

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        var (version, indexes, statistics, timetables): (String?, [String], Bool, [String]) = (nil, [], false, [])
        // A server keeps no sqlite_stat1: PostgreSQL's ANALYZE makes its own at every store.
        let onServer = StoreLocation.isPostgres(database.path)
        try ServerChange.apply(to: database.path) { path in
            version = try SchemaUpgrade.upgrade(databaseAt: path)
            indexes = try SchemaUpgrade.addMissingIndexes(databaseAt: path)
            statistics = try !onServer && SchemaUpgrade.addPlannerStatistics(databaseAt: path)
            timetables = try SchemaUpgrade.addJourneyPlannerTimetables(databaseAt: path)
            return version != nil || !indexes.isEmpty || statistics || !timetables.isEmpty
        }
        let shown = StoreLocation.redacted(database.path)
        if let version {
            writeToStandardOutput("Upgraded \(shown) from schema \(version) to \(Schema.version)\n")
        }
        if !indexes.isEmpty {
            writeToStandardOutput("Added the missing index\(indexes.count == 1 ? "" : "es") \(indexes.joined(separator: ", ")) to \(shown)\n")
        }
        if statistics {
            writeToStandardOutput("Added the query planner's statistics (sqlite_stat1) to \(shown)\n")
        }
        if !timetables.isEmpty {
            writeToStandardOutput("Added the journey planner's timetable of \(timetables.joined(separator: ", ")) to \(shown) (`transit plan`, `transit reach`)\n")
        }
        if version == nil && indexes.isEmpty && !statistics && timetables.isEmpty {
            writeToStandardOutput("\(shown) is up to date (schema \(Schema.version))\n")
        }
    }
}
