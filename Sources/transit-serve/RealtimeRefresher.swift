import Foundation
import ArgumentParser

/// `--realtime URL --every SECONDS`: `transit realtime … --every` runs beside the server for as
/// long as it serves, so the refresh follows exactly the command line's rules (one transaction a
/// round, ETag and Last-Modified, a failed round leaves the stored data as it was). Its summaries
/// go to the server's log (stderr).
final class RealtimeRefresher: @unchecked Sendable {
    private let process = Process()

    init(sources: [String], every: Int, feed: String?, headers: [String], databasePath: String) {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        process.executableURL = (FileManager.default.isExecutableFile(atPath: executable.appendingPathComponent("transit").path) ? executable : folder)
            .appendingPathComponent("transit")
        var arguments = ["realtime"] + sources + ["--db", databasePath, "--every", String(every)]
        if let feed { arguments += ["--feed", feed] }
        for header in headers { arguments += ["--header", header] }
        process.arguments = arguments
        process.standardOutput = FileHandle.standardError
    }

    /// Starts the refresh; a missing `transit` beside the server is said and stops the server.
    func start() throws {
        do {
            try process.run()
        } catch {
            throw ValidationError("cannot run \(process.executableURL?.path ?? "transit") for --realtime: \(error.localizedDescription)")
        }
    }

    /// Stops the refresh (between rounds or in one: a round's transaction rolls back).
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
