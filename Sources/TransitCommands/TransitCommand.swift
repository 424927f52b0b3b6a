import ArgumentParser
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// The `transit` program: its command line parsed and run, errors reported, the exit status set.
public enum TransitProgram {
    /// Runs the process's command line and exits.
    public static func main() -> Never {
        TransitCommand.main()
        Glibc.exit(0)
    }
}

/// `transit`: a GTFS timetable in SQLite, and the questions riders ask of it.
package struct TransitCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "transit",
        abstract: "Import a GTFS timetable into SQLite and ask it what riders ask.",
        discussion: """
            Start with `transit import FEED.zip` (import more feeds beside it; `transit feeds` lists them), then ask:
              transit nearby 54.687 25.28            stops near a point
              transit departures --stop ID           what leaves soon from a stop
              transit search "u gorli"               stops by name, typed loosely
              transit trip T1 --format geojson       where a trip goes, on a map
              transit routes --stop ID               the lines calling at a stop
              transit route ID                       where a line runs
              transit feeds                          the feeds of the database
              transit realtime updates.pb            GTFS-Realtime delays, vehicles, alerts
              transit plan FROM TO --at TIME         how to get from A to B (and transit reach)
              transit nearby --input points.csv      many questions in one run
              transit serve                          the same questions over HTTP, a map and a board
            Every query takes --feed NAME, --format table|json|csv|geojson, and --explain prints the SQL, its bound values, SQLite's query plan and the time taken, on stderr. The database is transit.sqlite, or $TRANSIT_DB, or --db PATH.
            """,
        version: TransitCommand.version,
        subcommands: [ImportCommand.self, FeedsCommand.self, RealtimeCommand.self, VehiclesCommand.self, AlertsCommand.self, NearbyCommand.self, DeparturesCommand.self, PlanCommand.self, ReachCommand.self, TripCommand.self, RoutesCommand.self, RouteCommand.self, SearchCommand.self, StatsCommand.self, ListCommand.self, ServeCommand.self]
    )

    /// The version `--version` prints, on `transit` and on each subcommand.
    package static let version = "0.1.0"

    package init() {}

    /// Runs the command line. Errors are printed as one line (`Error: …`) with a pointer to
    /// `--help`, not the whole usage: exit 64 for bad usage or values, 1 for runtime failures.
    static func main() {
        var command: ParsableCommand
        do {
            command = try parseDispatchingFirst()
        } catch {
            exitWith(error, subcommand: CommandLine.arguments.dropFirst().first)
        }
        do {
            try command.run()
        } catch is StreamClosed {
            Glibc.exit(0)
        } catch let interrupted as Interrupted {
            // A change stopped by Ctrl-C or kill was rolled back: exit as the signal would have.
            writeToStandardError("Error: \(interrupted)\n")
            Glibc.exit(128 + interrupted.signal)
        } catch {
            exitWith(error, subcommand: CommandLine.arguments.dropFirst().first)
        }
        Glibc.exit(0)
    }

    /// The command line parsed. A rider's usual query is read directly (`DirectCommandLine`).
    /// When it starts with a subcommand's name, that subcommand parses
    /// the rest as its own root (its help still says `transit NAME`): the parser then builds
    /// only that command's arguments, not every subcommand's, which was most of a query's
    /// start-up (Swift protocol-conformance lookups for each option's type). Everything else
    /// (`--help`, `--version`, `help NAME`, completion requests) goes through `transit` itself.
    private static func parseDispatchingFirst() throws -> ParsableCommand {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // The server reads its own command line, --help included.
        if arguments.first == "serve" { try ServeCommand.handOver(Array(arguments.dropFirst())) }
        if let command = DirectCommandLine.command(from: arguments) {
            return command
        }
        if let first = arguments.first,
           let subcommand = configuration.subcommands.first(where: { $0.configuration.commandName == first }) {
            do {
                return try subcommand.parseAsRoot(Array(arguments.dropFirst()))
            } catch where exitCode(for: error) == .validationFailure {
                // An undeclared option is the mistake to name, whatever failed first.
                if let option = UnknownOption.first(in: Array(arguments.dropFirst()), of: subcommand) {
                    throw UnknownOption.error(option, of: subcommand)
                }
                throw error
            }
        }
        return try parseAsRoot(arguments)
    }

    private static func exitWith(_ error: Error, subcommand: String?) -> Never {
        // An id that names nothing is a usage error here (a 404 only over HTTP).
        let error = (error as? UnknownIDError).map { ValidationError($0.description) as Error } ?? error
        if let mistake = error as? PredicateUsageError {
            // Three lines: what is wrong, the predicate, a caret under the place.
            writeToStandardError("Error: \(mistake)\n(see 'transit \(subcommand ?? "list") --help')\n")
            Glibc.exit(ExitCode.validationFailure.rawValue)
        }
        let code = exitCode(for: error)
        if code == .success {
            // --help, --version: the full text, on stdout.
            writeToStandardOutput(fullMessage(for: error) + "\n")
            Glibc.exit(0)
        }
        var message = self.message(for: error)
        if let firstLine = message.split(separator: "\n").first { message = String(firstLine) }
        if code.rawValue == 64 {
            let known = configuration.subcommands.map { $0.configuration.commandName ?? "" }
            let help = subcommand.map { known.contains($0) ? "transit \($0) --help" : "transit --help" } ?? "transit --help"
            message += " (see '\(help)')"
        }
        writeToStandardError("Error: " + message + "\n")
        Glibc.exit(code.rawValue)
    }
}
