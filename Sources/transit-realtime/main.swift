// The realtime reader behind `transit realtime`, which validates the command line and then runs
// this program in its own place (exec), so only realtime reads load the protobuf runtime.
//
//     transit-realtime SOURCE... --db PATH [--feed NAME] [--header "N: V"]... [--every SECONDS] [--format table|json]
//
// Each SOURCE is a file or an http(s) URL of one binary GTFS-Realtime FeedMessage (the headers
// are sent with every request). All sources are read and decoded first; only when every one is
// good is the feed's stored realtime data replaced (one transaction), in an SQLite file or on a
// PostgreSQL primary (`--db postgres://…`, which links libpq here: realtime reads are not the
// start-up that counts).
import Foundation
import GTFS
import GTFSRealtime
import HTTPDownload
import FetchRequest
import PostgresStore
#if canImport(Glibc)
import Glibc
#endif

var sources: [String] = []
var database = "transit.sqlite"
var feedName: String?
var every: Int?
var json = false
var headers: [(name: String, value: String)] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--db": database = arguments.popFirst() ?? database
    case "--feed": feedName = arguments.popFirst()
    case "--every": every = arguments.popFirst().flatMap { Int($0) }
    case "--format": json = arguments.popFirst() == "json"
    case "--header":
        // Checked by `transit realtime`: "NAME: VALUE".
        guard let header = arguments.popFirst(), let colon = header.firstIndex(of: ":") else { break }
        headers.append((String(header[..<colon]).trimmingCharacters(in: .whitespaces),
                        String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
    default: sources.append(argument)
    }
}

func fail(_ message: String, code: Int32 = 1) -> Never {
    writeToStandardError("Error: \(message)\n")
    exit(code)
}

guard !sources.isEmpty else { fail("transit-realtime reads messages for `transit realtime SOURCE...`; use that command", code: 64) }
// On a PostgreSQL primary the data is stored in place, in one transaction per round.
if StoreLocation.isPostgres(database) { PostgresStore.register(folding: TransitModel.folding) }

/// The bytes of `source`: a file, or an http(s) URL downloaded (with the headers) into memory.
@MainActor func contents(of source: String) throws -> [UInt8] {
    let lowercased = source.lowercased()
    guard lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://") else {
        var bytes: [UInt8] = []
        do {
            try FileSystem.read(source) { bytes.append(contentsOf: $0) }
        } catch let error as FeedError {
            throw RealtimeInputError(source: source, message: error.message)
        }
        return bytes
    }
    guard let url = URL(string: source), url.host != nil else { throw RealtimeInputError(source: source, message: "not a URL transit can download") }
    let download = FeedDownload(url: url, headers: headers, destination: nil, showProgress: false)
    _ = try download.run(etag: nil, lastModified: nil)
    return download.body
}

/// Reads every source and stores them as one dataset; the summary, or the error that kept the
/// stored data as it was.
@MainActor func readRound() throws -> RealtimeSummary {
    var dataset = RealtimeDataset()
    for source in sources {
        try FeedMessageReader.read(try contents(of: source), source: source, into: &dataset)
    }
    return try RealtimeStore.store(dataset, feedNamed: feedName, databaseAt: database, now: Int(time(nil)))
}

let utc = AgencyTimeZone(identifier: "UTC")!

/// "3 min", "2 h 5 min", "1,826 days": how long ago `seconds` is.
func age(_ seconds: Int) -> String {
    let magnitude = abs(seconds)
    let text: String
    if magnitude < 120 { text = "\(magnitude) s" }
    else if magnitude < 7200 { text = "\(magnitude / 60) min" }
    else if magnitude < 172_800 { text = "\(magnitude / 3600) h \(magnitude % 3600 / 60) min" }
    else { text = "\(formatCount(magnitude / 86_400)) days" }
    return seconds >= 0 ? text + " old" : text + " in the future"
}

@MainActor func describe(_ summary: RealtimeSummary, now: Int) -> String {
    if json {
        let quote = JSONText.quote
        let timestamp = summary.timestamp.map { quote(utc.localTime(of: $0).iso8601) } ?? "null"
        let sources = summary.sources.map { source in
            "{\"source\": \(quote(source.name)), \"timestamp\": " + (source.timestamp.map { quote(utc.localTime(of: $0).iso8601) } ?? "null")
                + ", \"trip_updates\": \(source.tripUpdates), \"vehicles\": \(source.vehicles), \"alerts\": \(source.alerts)}"
        }
        return "{\"feed\": \(quote(summary.feed)), \"timestamp\": \(timestamp), \"age_s\": " + (summary.timestamp.map { String(now - $0) } ?? "null")
            + ", \"trip_updates\": \(summary.tripUpdates), \"vehicles\": \(summary.vehicles), \"alerts\": \(summary.alerts)"
            + ", \"matched\": \(summary.matched), \"unmatched\": \(summary.unmatched), \"added\": \(summary.added)"
            + ", \"stop_time_updates_unmatched\": \(summary.stopTimeUpdatesUnmatched)"
            + ", \"unmatched_examples\": [" + summary.unmatchedExamples.map(quote).joined(separator: ", ") + "]"
            + ", \"sources\": [" + sources.joined(separator: ", ") + "]}\n"
    }
    let when = summary.timestamp.map { "\(utc.localTime(of: $0).iso8601) (\(age(now - $0)))" } ?? "no timestamp"
    var text = "Realtime for \(summary.feed), \(when): \(formatCount(summary.tripUpdates)) trip updates (\(formatCount(summary.matched)) matched"
    if summary.added > 0 { text += ", \(formatCount(summary.added)) new trips" }
    text += ", \(formatCount(summary.unmatched)) unmatched), \(formatCount(summary.vehicles)) vehicles, \(formatCount(summary.alerts)) alert\(summary.alerts == 1 ? "" : "s")"
    if summary.stopTimeUpdatesUnmatched > 0 {
        text += "\n  \(formatCount(summary.stopTimeUpdatesUnmatched)) stop time updates of matched trips name no stop time of their trip (ignored)"
    }
    if !summary.unmatchedExamples.isEmpty {
        text += "\n  unmatched trips (no trip of \(summary.feed) has these ids, or not on those days): " + summary.unmatchedExamples.joined(separator: ", ")
            + (summary.unmatched > summary.unmatchedExamples.count ? ", …" : "")
    }
    return text + "\n"
}

/// True for the errors only the command line can mend (exit 64): no such feed, or several and
/// no --feed.
func isUsageError(_ error: Error) -> Bool {
    if error is RealtimeError { return true }
    if case .unknownFeed? = error as? TransitError { return true }
    return false
}

guard let every else {
    do {
        let summary = try readRound()
        writeToStandardOutput(describe(summary, now: Int(time(nil))))
        exit(0)
    } catch let interrupted as Interrupted {
        writeToStandardError("Error: \(interrupted)\n")
        exit(128 + interrupted.signal)
    } catch {
        fail("\(error)", code: isUsageError(error) ? 64 : 1)
    }
}

// Polling: one round every `every` seconds, each stored atomically; a failed round is said and
// the last good data kept. Ctrl-C between rounds ends the program; during a store it rolls back.
while true {
    let started = time(nil)
    do {
        let summary = try readRound()
        writeToStandardOutput(describe(summary, now: Int(time(nil))))
    } catch let interrupted as Interrupted {
        writeToStandardError("Error: \(interrupted)\n")
        exit(128 + interrupted.signal)
    } catch where isUsageError(error) {
        // Another round would fail the same way.
        fail("\(error)", code: 64)
    } catch {
        writeToStandardError("Error: \(error) (the realtime data stored before is kept; next try in \(every) s)\n")
    }
    let elapsed = Int(time(nil) - started)
    if every > elapsed { sleep(UInt32(every - elapsed)) }
}
