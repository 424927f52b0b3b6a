import ArgumentParser
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// `transit serve`: handed over to `transit-serve`, installed beside `transit` (exec, as
/// `transit import`), so the query commands never load the HTTP server's libraries. Every word
/// after `serve`, `--help` included, is the server's to read.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        _superCommandName: "transit",
        abstract: "Answer these questions over HTTP (JSON API), with a map and a departures board in the browser.",
        discussion: "`transit serve --help` lists the server's options.",
        version: TransitCommand.version
    )

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The server's options (see `transit serve --help`).", valueName: "options"))
    var arguments: [String] = []

    func run() throws {
        try ServeCommand.handOver(arguments)
    }

    /// Replaces this process with transit-serve given `arguments`.
    static func handOver(_ arguments: [String]) throws -> Never {
        let server = try helperPath("transit-serve")
        let cArguments = ([server] + arguments).map { strdup($0) } + [nil]
        execv(server, cArguments)
        throw HelperMissing(path: server, reason: String(cString: strerror(errno)))
    }
}
