import ArgumentParser
import FetchRequest
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// `transit import FEED`: a `.zip` or folder is added to the database (or replaces the feed of the
/// same name), atomically.
///
/// The work is done by `transit-import`, installed beside `transit`, which this command runs in its
/// own place (exec: same process id, so Ctrl-C and exit codes behave as if it ran here). Keeping
/// zip support there keeps Foundation out of every query command's start-up.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        _superCommandName: "transit",
        abstract: "Add a GTFS feed (.zip or folder) to the database, or replace the feed of the same name.",
        discussion: """
            A database holds any number of feeds. The feed is stored under --feed NAME (default: the file or folder name without extension, lowercased, other characters than a-z 0-9 - _ turned into -); importing under a name the database has replaces that feed, and the other feeds are not touched. All or nothing: on any error, Ctrl-C or kill -9, the database holds exactly the feeds it held before. Rows that reference unknown stops or trips, and duplicate ids, are skipped and counted in the summary.
            With --db postgres://USER@HOST:PORT/DB (or $TRANSIT_DB), the feeds are stored on a PostgreSQL server instead, swapped in atomically for its readers and hot standbys (docs/postgres.md).
            From a URL, the feed is downloaded to a temporary file beside the database (redirects followed, --header sent) and imported; the URL and the server's ETag/Last-Modified are recorded, so `transit import --feed NAME` with no source downloads it again only when it changed.
            Files in UTF-8, UTF-16 (with a byte-order mark) and Windows-1252/Latin-1 are read as they are; --encoding forces one.
            Examples: transit import vilnius.zip
                      transit import "Caltrain 2017.zip" --feed caltrain
                      transit import https://example.org/gtfs.zip --header "X-Api-Key: KEY"
                      transit import --feed gtfs
            """,
        version: TransitCommand.version
    )

    @Argument(help: ArgumentHelp("The GTFS feed: a .zip file, a folder of .txt files, or an http(s) URL of a .zip (default with --feed: where that feed came from).", valueName: "feed"), completion: .file())
    var source: String?

    @Option(name: .long, parsing: .unconditionalSingleValue, help: ArgumentHelp("Send this HTTP header with the download (a feed behind an API key); repeatable.", valueName: "name: value"))
    var header: [String] = []

    @Option(name: .long, help: ArgumentHelp("The feed's name in the database (a-z 0-9 - _; default: from the file name).", valueName: "name"),
            completion: Completion.feedNames)
    var feed: String?

    @Option(name: .long, help: ArgumentHelp("Read every file in this encoding: utf-8, utf-16, windows-1252, iso-8859-1 or iso-8859-15 (default: detected per file).", valueName: "name"))
    var encoding: String?

    @OptionGroup var database: DatabaseOptions

    @Flag(name: .long, help: "Print neither progress nor the summary.")
    var quiet = false

    @Flag(name: .long, help: "Add the seconds each step took to the summary.")
    var timings = false

    /// The name the feed gets.
    var feedName: String { feed ?? FeedName.derived(fromSource: source ?? "") }

    func validate() throws {
        if source == nil && feed == nil {
            throw ValidationError("give the feed to import (a .zip, a folder or a URL), or --feed NAME to import that feed again from where it came from")
        }
        for header in header where !header.contains(":") || header.hasPrefix(":") {
            throw ValidationError("--header takes \"NAME: VALUE\", got '\(header)'")
        }
        if let encoding, TextEncoding(name: encoding) == nil {
            throw ValidationError("--encoding takes one of \(TextEncoding.names); got '\(encoding)'")
        }
        guard FeedName.isValid(feedName) else {
            throw ValidationError("--feed '\(feedName)' is not a feed name: use only \(FeedName.alphabet)")
        }
    }

    func run() throws {
        // On a PostgreSQL server, transit-postgres runs transit-import on a scratch file and stores it.
        let onServer = StoreLocation.isPostgres(database.path)
        let engine = try helperPath(onServer ? "transit-postgres" : "transit-import")
        var arguments = [engine] + (onServer ? ["import"] : []) + (source.map { [$0] } ?? []) + ["--db", database.path, "--feed", feedName]
        for header in header { arguments += ["--header", header] }
        if let encoding { arguments += ["--encoding", TextEncoding(name: encoding)!.rawValue] }
        if quiet { arguments.append("--quiet") }
        if timings { arguments.append("--timings") }
        let cArguments = arguments.map { strdup($0) } + [nil]
        execv(engine, cArguments)
        throw HelperMissing(path: engine, reason: String(cString: strerror(errno)))
    }
}

/// Runs this command line again in transit-postgres (exec: it never returns) when `location` is a
/// PostgreSQL server and this program cannot open one: only transit-postgres links libpq, so a
/// question asked of a file starts as fast as before.
func answerOnServerIfNeeded(_ location: String) throws {
    guard StoreLocation.isPostgres(location), Database.storeOpener == nil else { return }
    let helper = try helperPath("transit-postgres")
    let cArguments = ([helper] + CommandLine.arguments.dropFirst()).map { strdup($0) } + [nil]
    execv(helper, cArguments)
    throw HelperMissing(path: helper, reason: String(cString: strerror(errno)))
}

/// The helper program `name` (`transit-import`, `transit-realtime`) in the folder of the running
/// `transit` binary.
func helperPath(_ name: String) throws -> String {
    guard let folder = FileSystem.programDirectory() else { throw HelperMissing(path: name, reason: "cannot find where transit is installed") }
    return folder + "/" + name
}

/// A helper program is not installed beside `transit`.
struct HelperMissing: Error, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String {
        "cannot run \(path) (\(reason)); install \(FileSystem.baseName(of: path)) beside transit (swift build builds them all)"
    }
}
