import ArgumentParser
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// `transit import FEED`: a `.zip` or folder becomes the database, atomically.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a GTFS feed (.zip or folder) into the database.",
        discussion: """
            The database is written beside the target and renamed over it only when the import
            succeeds: on any error, Ctrl-C or kill, the previous database is left as it was.
            Rows that reference unknown stops or trips, and duplicate ids, are skipped and
            counted in the summary.
            """
    )

    @Argument(help: ArgumentHelp("The GTFS feed: a .zip file or a folder of .txt files.", valueName: "feed"))
    var feed: String

    @OptionGroup var database: DatabaseOptions

    @Flag(name: .long, help: "Print neither progress nor the summary.")
    var quiet = false

    @Flag(name: .long, help: "Add the seconds each step took to the summary.")
    var timings = false

    func run() throws {
        let progress = quiet || isatty(2) == 0 ? nil : TerminalProgress()
        let importer = Importer(feedPath: feed, databasePath: database.path, progress: progress)
        let report: ImportReport
        do {
            report = try importer.run()
        } catch {
            progress?.clear()
            throw error
        }
        progress?.clear()
        guard !quiet else { return }
        print(ImportSummary(report: report, databasePath: database.path, showTimings: timings).text)
    }
}
