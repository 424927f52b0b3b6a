// The import engine behind `transit import`, which validates the command line and then runs this
// program in its own place (exec), so only imports load ZIPFoundation and Foundation.
//
//     transit-import [SOURCE] --db PATH --feed NAME [--encoding E] [--header "N: V"]... [--quiet] [--timings]
//                    [--shown-db NAME] [--defer-feed-indexes]
//
// SOURCE is a .zip, a folder or an http(s) URL; without it, the feed's recorded source is imported
// again (a URL only when it changed). --shown-db names the database in messages in place of PATH:
// transit-postgres imports into a scratch file and shows the server's URL. --defer-feed-indexes
// leaves the feed's own indexes to the server the scratch file is stored on (`DeferredIndexes`).
import Foundation
import GTFS
import GTFSZip
import HTTPDownload
#if canImport(Glibc)
import Glibc
#endif

var source: String?
nonisolated(unsafe) var database = "transit.sqlite"
nonisolated(unsafe) var shownDatabase: String?
var feedName: String?
var encoding: TextEncoding?
var headers: [(name: String, value: String)] = []
var quiet = false
var timings = false
var defersFeedIndexes = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--db":
        guard let value = arguments.popFirst() else { break }
        database = value
    case "--shown-db": shownDatabase = arguments.popFirst()
    case "--feed": feedName = arguments.popFirst()
    case "--encoding": encoding = arguments.popFirst().flatMap(TextEncoding.init(name:))
    case "--header":
        guard let header = arguments.popFirst(), let colon = header.firstIndex(of: ":") else { break }
        headers.append((String(header[..<colon]).trimmingCharacters(in: .whitespaces),
                        String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
    case "--quiet": quiet = true
    case "--timings": timings = true
    case "--defer-feed-indexes": defersFeedIndexes = true
    default: source = argument
    }
}

func fail(_ message: String, code: Int32 = 1) -> Never {
    let message = shownDatabase.map { message.replacingOccurrences(of: database, with: $0) } ?? message
    writeToStandardError("Error: \(message)\n")
    exit(code)
}

/// The download in progress, removed if a signal ends the process.
nonisolated(unsafe) var downloadPath: UnsafeMutablePointer<CChar>?

func isURL(_ text: String) -> Bool {
    let lower = text.lowercased()
    return lower.hasPrefix("http://") || lower.hasPrefix("https://")
}

// Without a source: the recorded one, with what is known of its last download.
var previous: RecordedSource?
if source == nil {
    guard let feedName else { fail("transit-import runs imports for `transit import FEED`; use that command", code: 64) }
    do {
        previous = try RecordedSource.of(feedNamed: feedName, inDatabaseAt: database)
    } catch {
        fail("\(error)")
    }
    guard let previous else {
        fail("\(database) has no feed named \(feedName) to import again; give its source: transit import FEED --feed \(feedName)", code: 64)
    }
    source = previous.source
}
let feedSource = source!

let progress = quiet || isatty(2) == 0 ? nil : TerminalProgress()
var feedPath = feedSource
var validators: (etag: String?, lastModified: String?)?
if isURL(feedSource) {
    guard let url = URL(string: feedSource), url.host != nil else { fail("\(feedSource) is not a URL transit can download") }
    let temporary = temporaryFile(beside: database, kind: "download")
    guard FileSystem.kind(of: FileSystem.directory(of: database)) == .directory else {
        fail("\(database): the folder for the database does not exist")
    }
    downloadPath = strdup(temporary)
    for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
        signal(signalNumber) { number in
            if let path = downloadPath { unlink(path) }
            _exit(128 + number)
        }
    }
    let download = FeedDownload(url: url, headers: headers, destination: temporary, showProgress: !quiet && isatty(2) != 0)
    do {
        // The validators count only when the same URL is downloaded again.
        let same = previous?.source == feedSource
        switch try download.run(etag: same ? previous?.etag : nil, lastModified: same ? previous?.lastModified : nil) {
        case .unchanged:
            unlink(temporary)
            let since = previous?.lastModified ?? previous?.importedAt ?? "the last import"
            if !quiet { writeToStandardOutput("\(feedName ?? "the feed"): unchanged since \(since); nothing downloaded or imported\n") }
            exit(0)
        case let .downloaded(etag, lastModified):
            validators = (etag, lastModified)
        }
    } catch {
        unlink(temporary)
        fail("\(error)")
    }
    feedPath = temporary
}

do {
    defer { if feedPath != feedSource { unlink(feedPath) } }
    let importer = Importer(feedPath: feedPath, databasePath: database, feedName: feedName, progress: progress, openFeed: openFeedOrZip(at:))
    importer.encoding = encoding
    importer.defersFeedIndexes = defersFeedIndexes
    if feedPath != feedSource {
        importer.recordedSource = feedSource
        importer.downloadValidators = validators
    }
    let report = try importer.run()
    progress?.clear()
    if !quiet { writeToStandardOutput(ImportSummary(report: report, databasePath: shownDatabase ?? database, showTimings: timings).text + "\n") }
} catch let interrupted as Interrupted {
    // Rolled back: the database holds the feeds it held. Exit as the signal would have.
    progress?.clear()
    if feedPath != feedSource { unlink(feedPath) }
    exit(128 + interrupted.signal)
} catch {
    progress?.clear()
    if feedPath != feedSource { unlink(feedPath) }
    // Errors about the downloaded file name the URL, not the temporary file.
    fail("\(error)".replacingOccurrences(of: feedPath, with: feedSource))
}
