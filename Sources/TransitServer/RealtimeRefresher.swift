import ArgumentParser
import Foundation

/// `--realtime URL --every SECONDS`: `transit realtime … --every` runs beside the server for as
/// long as it serves, so the refresh follows exactly the command line's rules (one transaction a
/// round, ETag and Last-Modified, a failed round leaves the stored data as it was). Its summaries
/// go to the server's log (stderr).
///
/// Started with `posix_spawn` and an empty signal mask: the server's threads block the signals
/// its own handlers wait for, and a child inherits the mask of the thread that starts it (a child
/// started by Foundation's `Process` from such a thread could not be stopped with SIGTERM).
final class RealtimeRefresher: @unchecked Sendable {
    private let executable: String
    private let arguments: [String]
    private var child: pid_t = 0

    init(sources: [String], every: Int, feed: String?, headers: [String], databasePath: String) {
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        executable = folder.appendingPathComponent("transit").path
        var arguments = ["realtime"] + sources + ["--db", databasePath, "--every", String(every)]
        if let feed { arguments += ["--feed", feed] }
        for header in headers { arguments += ["--header", header] }
        self.arguments = arguments
    }

    /// Starts the refresh; a missing `transit` beside the server is said and stops the server.
    func start() throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        // Its summaries go to stderr, with the access log.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard status == 0 else {
            throw ValidationError("cannot run \(executable) for --realtime: \(String(cString: strerror(status)))")
        }
    }

    /// Stops the refresh (between rounds or in one: a round's transaction rolls back): SIGTERM,
    /// then SIGKILL if it has not ended within 10 s.
    func stop() {
        guard child > 0 else { return }
        kill(child, SIGTERM)
        for _ in 0..<200 {
            var status: Int32 = 0
            if waitpid(child, &status, WNOHANG) == child { return }
            usleep(50_000)
        }
        kill(child, SIGKILL)
        var status: Int32 = 0
        waitpid(child, &status, 0)
    }
}
