import ArgumentParser
import FetchRequest
import Foundation
import GTFS
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import TransitCommands

/// `transit serve` as `transit-serve` reads it (run by `transit serve`, installed beside it): the
/// questions `transit` answers, over HTTP as JSON, and pages for a browser (a map of the stops, a
/// departures board for a kiosk, a trip on the map), each showing the SQL and plan of its last
/// request. (`transit`'s own `ServeCommand` only hands its words over to this one.)
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transit serve",
        abstract: "Answer transit's questions over HTTP (JSON), with a map and a departures board in the browser.",
        discussion: """
            The API: GET /api/nearby, /api/departures, /api/search, /api/trip/{id}, /api/routes, /api/route/{id}, /api/feeds, /api/alerts, /api/vehicles, /api/list/{table}, /api/plan and /api/reach, their parameters named as the command line's options (max_rides for --max-rides); each answers exactly what `transit COMMAND --format json` answers. explain=1 wraps the answer as {"result", "explain", "notes"}: every statement's SQL, bound values, query plan, rows and time. Mistakes are {"error", "parameter"} with status 400 (or 404 for an unknown stop, trip, route or path).
            The pages: / (the stops on a map, search), /board/{stop} (departures, for a kiosk), /trip/{id}.
            Examples: transit serve
                      transit serve --db vilnius.sqlite --port 8000
                      transit serve --realtime https://example.org/gtfs-rt/trip-updates --every 30
            """,
        version: TransitCommand.version
    )

    /// `--db PATH`, as every `transit` command reads it.
    @OptionGroup var database: DatabaseOptions

    @Option(name: .long, help: "The address to listen on (127.0.0.1: this machine only; 0.0.0.0: every interface).")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The port to listen on (0: any free port; the URL printed says which).")
    var port = 8080

    @Option(name: .long, help: ArgumentHelp("Read this GTFS-Realtime source into the database every --every seconds, as `transit realtime` does (repeat for several).", valueName: "url"))
    var realtime: [String] = []

    @Option(name: .long, help: ArgumentHelp("Seconds between realtime refreshes (5 to 3600).", valueName: "seconds"))
    var every = 30

    @Option(name: .long, help: ArgumentHelp("The feed the realtime data belongs to (needed when the database holds several).", valueName: "name"))
    var feed: String?

    @Option(name: .long, parsing: .unconditionalSingleValue, help: ArgumentHelp("Send this HTTP header with every realtime request; repeatable.", valueName: "name: value"))
    var header: [String] = []

    @Option(name: .customLong("time-limit"), help: ArgumentHelp("Each question's budget of database time, in milliseconds (10 to 60000).", valueName: "ms"))
    var timeLimit = 1000

    @Option(name: .long, help: "How many questions may be answered at once, each on its own read-only connection and thread (one a core at a time, more while some take over 50 ms).")
    var connections = 8

    @Option(name: .long, help: "How many questions may wait for a connection; beyond, the answer is 503 with Retry-After.")
    var queue = 256

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp("Close a connection that has sent nothing for this many seconds (1 to 3600).", valueName: "seconds"))
    var idleTimeout = 60

    @Option(name: .long, help: ArgumentHelp("Let pages of this origin read the API (CORS; off by default).", valueName: "origin"))
    var cors: String?

    @Flag(name: .long, help: "Write no access log (one line per request on stderr).")
    var quiet = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port is a number from 0 to 65535") }
        guard (5...3600).contains(every) else { throw ValidationError("--every is from 5 to 3600 seconds") }
        guard (10...60000).contains(timeLimit) else { throw ValidationError("--time-limit is from 10 to 60000 ms") }
        guard (1...256).contains(connections) else { throw ValidationError("--connections is from 1 to 256") }
        guard (0...100_000).contains(queue) else { throw ValidationError("--queue is from 0 to 100000") }
        guard (1...3600).contains(idleTimeout) else { throw ValidationError("--idle-timeout is from 1 to 3600 seconds") }
        if realtime.isEmpty && (feed != nil || !header.isEmpty) { throw ValidationError("--feed and --header go with --realtime URL") }
        if !realtime.isEmpty && StoreLocation.isPostgres(database.path) {
            // Stored once for every node: serve reads a standby, which takes no writes.
            throw ValidationError("--realtime stores what it reads in the database: on a PostgreSQL server store it once for every node with `transit realtime URL --every SECONDS --db PRIMARY` (docs/postgres.md)")
        }
    }

    /// How many event loops (threads reading and writing the connections) the server runs on a
    /// machine of `cores` cores: half of them, at least one. The questions run on the pool's
    /// threads, one a core at once, so an event loop per core as well made two busy threads per core.
    /// Measured on 2 cores with wrk on the large feed, one loop against two: nearby 1.05-1.18x,
    /// departures 1.08-1.15x and search 1.06-1.14x the requests a second, and less CPU a request.
    static func eventLoopCount(cores: Int) -> Int {
        max(1, cores / 2)
    }

    func run() async throws {
        let pool = ConnectionPool(path: database.path, connections: connections, queueLimit: queue, timeLimit: timeLimit, cores: System.coreCount)
        do {
            try pool.check()
        } catch {
            writeToStandardError("Error: \(error)\n")
            throw ExitCode.failure
        }
        var settings = ServerSettings(corsOrigin: cors, quiet: quiet)
        if !realtime.isEmpty { settings.cacheControl = "max-age=\(every)" }
        var logger = Logger(label: "transit-serve")
        logger.logLevel = .error
        let refresher = realtime.isEmpty ? nil : RealtimeRefresher(sources: realtime, every: every, feed: feed, headers: header, databasePath: database.path)
        let host = host
        let server = Server(
            childChannelSetup: TransitChannel(responder: TransitResponder(pool: pool, settings: settings), idleTimeout: .seconds(Int64(idleTimeout))),
            configuration: ServerConfiguration(address: .hostname(host, port: port), serverName: "transit"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                writeToStandardError("transit serve: \(StoreLocation.redacted(pool.path)) on http://\(shown):\(port)/ (Ctrl-C stops)\n")
            },
            eventLoopGroup: MultiThreadedEventLoopGroup(numberOfThreads: Self.eventLoopCount(cores: System.coreCount)),
            logger: logger
        )
        // SIGTERM and SIGINT stop it gracefully: no new connections, every request in flight
        // answered, then each connection closed.
        let services = ServiceGroup(configuration: .init(services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try refresher?.start()
        defer { refresher?.stop() }
        do {
            try await services.run()
        } catch {
            writeToStandardError("Error: cannot serve on \(host):\(port): \(error)\n")
            throw ExitCode.failure
        }
    }
}
