// The import engine behind `transit import`, which validates the command line and then runs this
// program in its own place (exec), so only imports load ZIPFoundation and Foundation.
//
//     transit-import FEED --db PATH [--quiet] [--timings]
import GTFS
import GTFSZip
#if canImport(Glibc)
import Glibc
#endif

var feed: String?
var database = "transit.sqlite"
var quiet = false
var timings = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--db":
        guard let value = arguments.popFirst() else { break }
        database = value
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
    let report = try Importer(feedPath: feed, databasePath: database, progress: progress, openFeed: openFeedOrZip(at:)).run()
    progress?.clear()
    if !quiet { writeToStandardOutput(ImportSummary(report: report, databasePath: database, showTimings: timings).text + "\n") }
} catch {
    progress?.clear()
    writeToStandardError("Error: \(error)\n")
    exit(1)
}
