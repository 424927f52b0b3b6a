import ArgumentParser

/// `transit`: a GTFS timetable in SQLite, and the questions riders ask of it.
@main
struct TransitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transit",
        abstract: "Import a GTFS timetable into SQLite and ask it what riders ask.",
        discussion: """
            Start with `transit import FEED.zip`, then ask:
              transit nearby 54.687 25.28            stops near a point
              transit departures --stop ID           what leaves soon from a stop
              transit search "u gorli"               stops by name, typed loosely
            Every query takes --format table|json|csv|geojson, and --explain prints the SQL,
            its bound values, SQLite's query plan and the time taken, on stderr.
            The database is transit.sqlite, or $TRANSIT_DB, or --db PATH.
            """,
        version: "0.1.0",
        subcommands: [ImportCommand.self]
    )
}
