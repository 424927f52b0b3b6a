// The import engine behind `transit import`, which validates the command line and then runs this
// program in its own place (exec), so only imports load ZIPFoundation and Foundation.
//
//     transit-import FEED --db PATH [--feed NAME] [--quiet] [--timings]
import GTFS
import GTFSZip
#if canImport(Glibc)
import Glibc
#endif

var feed: String?
var database = "transit.sqlite"
var feedName: String?
var encoding: TextEncoding?
var quiet = false
var timings = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--db":
        guard let value = arguments.popFirst() else { break }
        database = value
    case "--feed": feedName = arguments.popFirst()
    case "--encoding": encoding = arguments.popFirst().flatMap(TextEncoding.init(name:))
    case "--quiet": quiet = true
    case "--timings": timings = true
    default: feed = argument
    }
}
guard let feed else {
    writeToStandardError("Error: transit-import runs imports for `transit import FEED`; use that command\n")
    exit(64)
}
let progress = quiet || isatty(2) == 0 ? nil : TerminalProgress()
do {
    let importer = Importer(feedPath: feed, databasePath: database, feedName: feedName, progress: progress, openFeed: openFeedOrZip(at:))
    importer.encoding = encoding
    let report = try importer.run()
    progress?.clear()
    if !quiet { writeToStandardOutput(ImportSummary(report: report, databasePath: database, showTimings: timings).text + "\n") }
} catch let interrupted as Interrupted {
    // Rolled back: the database holds the feeds it held. Exit as the signal would have.
    progress?.clear()
    exit(128 + interrupted.signal)
} catch {
    progress?.clear()
    writeToStandardError("Error: \(error)\n")
    exit(1)
}
