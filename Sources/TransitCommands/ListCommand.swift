import ArgumentParser
import FetchRequest
import GTFS

/// `transit list TABLE`: a whole table, or the rows a predicate picks, streamed in the feed's own terms.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        _superCommandName: "transit",
        abstract: "Stream a table's rows, or those a predicate picks, as CSV or JSON.",
        discussion: """
            Tables: \(EntityListing.tableNames.joined(separator: ", ")) (stop-times is stop_times). The realtime_ tables hold what transit realtime last read for each feed (before any read: no rows). Each is listed with its GTFS fields; ids are the feed's own, with the feed's name in the first column; times are HH:MM:SS. Rows are stepped one at a time from a single statement and written as they come, so memory stays flat even for millions of stop times. Feeds come one after another, by name (--sort orders within each); --feed NAME keeps those feeds.
            --predicate takes an NSPredicate format string over the table's attributes and relationships (see the README, "Ask anything with a predicate"): == != < <= > >= BEGINSWITH ENDSWITH CONTAINS LIKE (* ?) with [c] [d] [cd], BETWEEN {a, b}, IN {a, b}, AND OR NOT, nil; key paths follow relationships (trip.route.route_short_name); to-many ones take ANY ALL NONE, @count @sum @min @max @avg, or SUBQUERY(stop_times, $x, $x.pickup_type == 1).@count. %@ and %K take --arg values in order, $NAME takes --var NAME=VALUE. Every value is bound. --where FIELD=VALUE is short for FIELD == VALUE.
            Examples: transit list trips --predicate 'stop_times.@count > 40'
                      transit list routes --predicate 'ANY trips.stop_times.stop.stop_name BEGINSWITH[cd] %@' --arg gorli
                      transit list stop_times --predicate 'trip.route.route_short_name == %@ AND stop_sequence == 1' --arg 1 --sort departure_time --limit 5
                      transit list stops --where location_type=1 --format json
                      transit list realtime_vehicles --predicate 'current_status == "stopped_at" AND trip.route.route_short_name == %@' --arg 1
            """,
        version: TransitCommand.version
    )

    @Argument(help: ArgumentHelp("The table: \(EntityListing.tableNames.joined(separator: ", ")).", valueName: "table"))
    var table: String

    @Option(name: .long, help: ArgumentHelp("Keep the rows this NSPredicate format string holds for.", valueName: "format"))
    var predicate: String?

    @Option(name: .customLong("arg"), parsing: .unconditionalSingleValue, help: ArgumentHelp("A value for the next %@ (or key path for %K) of --predicate; repeat in order.", valueName: "value"))
    var arguments: [String] = []

    @Option(name: .customLong("var"), parsing: .unconditionalSingleValue, help: ArgumentHelp("A value for $NAME in --predicate.", valueName: "name=value"))
    var variables: [String] = []

    @Option(name: .long, parsing: .unconditionalSingleValue, help: ArgumentHelp("Keep rows where FIELD equals VALUE (repeat to combine).", valueName: "field=value"))
    var `where`: [String] = []

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Sort by these key paths, separated by commas; - before one for descending (-departure_time,trip_id).", valueName: "keys"))
    var sort: String?

    @Option(name: .long, parsing: .unconditional, help: "At most this many rows (0: no limit).")
    var limit: Int = 0

    @Option(name: .long, parsing: .unconditional, help: "Skip this many rows first.")
    var offset: Int = 0

    @Option(name: .long, help: "csv (default) or json.")
    var format: ListFormat = .csv

    @Flag(name: .long, help: "Print the SQL, its values and SQLite's plan on stderr.")
    var explain = false

    @OptionGroup var feeds: FeedOptions

    @OptionGroup var database: DatabaseOptions

    enum ListFormat: String, ExpressibleByArgument, CaseIterable { case csv, json }

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit takes 0 (no limit) or more") }
        guard offset >= 0 else { throw ValidationError("--offset takes 0 or more") }
        if predicate == nil && !(arguments.isEmpty && variables.isEmpty) {
            throw ValidationError("--arg and --var fill the %@, %K and $NAME of --predicate: give --predicate too")
        }
        for variable in variables where !variable.contains("=") || variable.hasPrefix("=") {
            throw ValidationError("--var takes NAME=VALUE; got '\(variable)'")
        }
    }

    /// The request, checked against the model: mistakes are usage errors, a predicate's shown with a caret.
    private func listing() throws -> EntityListing {
        var request = EntityListing.Request(entity: table)
        request.predicate = predicate
        request.arguments = arguments
        request.conditions = self.where
        request.sort = sort
        for variable in variables {
            let equals = variable.firstIndex(of: "=")!
            request.variables[String(variable[..<equals])] = String(variable[variable.index(after: equals)...])
        }
        do {
            return try EntityListing(request)
        } catch let error as PredicateFormatError {
            throw PredicateUsageError(error: error, option: sort != nil && error.format == sort ? "--sort" : error.format == predicate ? "--predicate" : "--where")
        } catch let error as EntityListing.UnknownTable {
            throw UnknownIDError(description: error.description)
        } catch let error as EntityListing.UnknownField {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let listing = try listing()
        let transit = try openTransitDatabase(path: database.path, explain: explain)
        try feeds.apply(to: transit)
        let writer = StreamWriter()
        let rows = TableRowWriter(listing: listing, writer: writer, format: format)
        rows.begin()
        // Feed after feed, by name; each row is written as soon as SQLite hands it over: nothing is
        // collected. --offset skips whole feeds by counting their rows, then rows of the next one.
        var toSkip = offset
        var left = limit > 0 ? limit : Int.max
        do {
            for feed in transit.selectedFeeds where left > 0 {
                if toSkip > 0 {
                    let count = try transit.database.count(try listing.query(for: feed))
                    if count <= toSkip {
                        toSkip -= count
                        continue
                    }
                }
                let query = try listing.query(for: feed, limit: limit > 0 ? left : nil, offset: toSkip)
                toSkip = 0
                try transit.database.forEachRow(SQLGenerator.prepare(query)) { row in
                    guard !writer.failed else { throw StreamClosed() }
                    rows.write(row)
                    left -= 1
                }
            }
        } catch let error as DatabaseError where error.isMissingTable && listing.isRealtime {
            // No realtime data was ever read into this database: no rows (the table is made by
            // the first `transit realtime`, before any row).
        }
        rows.end()
        writer.flush()
    }
}

/// A mistake in a predicate (or sort keys): the message, the text with a caret under the place.
struct PredicateUsageError: Error, CustomStringConvertible {
    let error: PredicateFormatError
    /// The option the text came from.
    let option: String
    var description: String { option + ": " + error.description }
}

/// The reader of stdout went away (`| head`): stop quietly.
struct StreamClosed: Error {}
