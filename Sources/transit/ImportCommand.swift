import ArgumentParser
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
        abstract: "Add a GTFS feed (.zip or folder) to the database, or replace the feed of the same name.",
        discussion: """
            A database holds any number of feeds. The feed is stored under --feed NAME (default: the file or folder name without extension, lowercased, other characters than a-z 0-9 - _ turned into -); importing under a name the database has replaces that feed, and the other feeds are not touched. All or nothing: on any error, Ctrl-C or kill -9, the database holds exactly the feeds it held before. Rows that reference unknown stops or trips, and duplicate ids, are skipped and counted in the summary.
            Examples: transit import vilnius.zip
                      transit import "Caltrain 2017.zip" --feed caltrain
            """
    )

    @Argument(help: ArgumentHelp("The GTFS feed: a .zip file or a folder of .txt files.", valueName: "feed"))
    var source: String

    @Option(name: .long, help: ArgumentHelp("The feed's name in the database (a-z 0-9 - _; default: from the file name).", valueName: "name"))
    var feed: String?

    @Option(name: .long, help: ArgumentHelp("Read every file in this encoding: utf-8, utf-16, windows-1252, iso-8859-1 or iso-8859-15 (default: detected per file).", valueName: "name"))
    var encoding: String?

    @OptionGroup var database: DatabaseOptions

    @Flag(name: .long, help: "Print neither progress nor the summary.")
    var quiet = false

    @Flag(name: .long, help: "Add the seconds each step took to the summary.")
    var timings = false

    /// The name the feed gets.
    var feedName: String { feed ?? FeedName.derived(fromSource: source) }

    func validate() throws {
        if let encoding, TextEncoding(name: encoding) == nil {
            throw ValidationError("--encoding takes one of \(TextEncoding.names); got '\(encoding)'")
        }
        guard FeedName.isValid(feedName) else {
            throw ValidationError("--feed '\(feedName)' is not a feed name: use only \(FeedName.alphabet)")
        }
    }

    func run() throws {
        let engine = try ImportCommand.enginePath()
        var arguments = [engine, source, "--db", database.path, "--feed", feedName]
        if let encoding { arguments += ["--encoding", TextEncoding(name: encoding)!.rawValue] }
        if quiet { arguments.append("--quiet") }
        if timings { arguments.append("--timings") }
        let cArguments = arguments.map { strdup($0) } + [nil]
        execv(engine, cArguments)
        throw ImportEngineMissing(path: engine, reason: String(cString: strerror(errno)))
    }

    /// `transit-import` in the folder of the running `transit` binary.
    static func enginePath() throws -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { throw ImportEngineMissing(path: "transit-import", reason: "cannot find where transit is installed") }
        let executable = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return FileSystem.directory(of: executable) + "/transit-import"
    }
}

/// The import engine is not installed beside `transit`.
struct ImportEngineMissing: Error, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String {
        "cannot run the import engine \(path) (\(reason)); install transit-import beside transit (swift build builds both)"
    }
}
