import Foundation
import FetchRequest

/// The result of running a command: exit status (128 + the signal when a signal ended it), stdout
/// and stderr.
public struct CommandRun {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    /// Runs `executable` with `arguments`, optionally in `directory` and with extra `environment`,
    /// and waits for it to end; past `timeout` seconds it is killed (a hang is a failure too).
    public static func run(_ executable: String, _ arguments: [String], in directory: String? = nil,
                           environment: [String: String] = [:], timeout: Double = 120) throws -> CommandRun {
        let child = try ChildProcess(executable, arguments, in: directory, environment: environment, capture: true)
        let (out, err) = child.readOutput(timeout: timeout)
        return CommandRun(status: child.wait(), stdout: String(decoding: out, as: UTF8.self),
                          stderr: String(decoding: err, as: UTF8.self))
    }

    /// Runs the `transit` binary.
    public static func transit(_ arguments: [String], in directory: String? = nil,
                               environment: [String: String] = [:], timeout: Double = 120) throws -> CommandRun {
        try run(Paths.transitBinary, arguments, in: directory, environment: environment, timeout: timeout)
    }
}

/// A child process started with `posix_spawn` (Foundation's `Process` reads past a buffer under
/// AddressSanitizer on Linux, so the tests do not use it).
public final class ChildProcess {
    /// The child's process id.
    public let pid: pid_t
    private var outRead: Int32 = -1
    private var errRead: Int32 = -1
    private var exitStatus: Int32?

    /// Starts `executable`; with `capture`, stdout and stderr are piped (read them with
    /// `readOutput`), else they go to /dev/null. Stdin is /dev/null.
    public init(_ executable: String, _ arguments: [String], in directory: String? = nil,
                environment: [String: String] = [:], capture: Bool = false) throws {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "TRANSIT_DB")
        for (key, value) in environment { env[key] = value }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        if capture {
            guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw POSIXError(.EMFILE) }
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
            for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        if let directory { _ = spawnChangeDirectory(&actions, directory) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let code = posix_spawn(&child, executable, &actions, nil, argv, envp)
        if capture {
            close(outPipe[1])
            close(errPipe[1])
        }
        guard code == 0 else {
            if capture { close(outPipe[0]); close(errPipe[0]) }
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .ENOENT)
        }
        pid = child
        outRead = outPipe[0]
        errRead = errPipe[0]
    }

    /// Reads stdout and stderr until both close; kills the child if that takes over `timeout`.
    /// With `onError`, stderr is handed over chunk by chunk as it arrives (a server's log) instead.
    public func readOutput(timeout: Double, onError: ((Data) -> Void)? = nil) -> (Data, Data) {
        var out = Data()
        var err = Data()
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        var open = [outRead, errRead].filter { $0 >= 0 }
        while !open.isEmpty {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            if poll(&fds, nfds_t(fds.count), remaining) == 0 {
                kill(pid, SIGKILL)
                deadlineMissed = true
            }
            for entry in fds where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    if entry.fd == outRead {
                        out.append(contentsOf: buffer[0..<count])
                    } else if let onError {
                        onError(Data(buffer[0..<count]))
                    } else {
                        err.append(contentsOf: buffer[0..<count])
                    }
                } else if count == 0 || errno != EINTR {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        return (out, err)
    }

    /// True when `readOutput` had to kill the child.
    public private(set) var deadlineMissed = false

    /// Sends `signal` to the child.
    public func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits for the child to end: its exit code, or 128 + the signal that ended it.
    @discardableResult
    public func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let low = status & 0x7F
        let result = low == 0 ? (status >> 8) & 0xFF : 128 + low
        exitStatus = result
        return result
    }
}

/// glibc's `posix_spawn_file_actions_addchdir_np` (2.29+), which its header shows only with
/// _GNU_SOURCE.
@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func spawnChangeDirectory(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>) -> Int32

/// A fingerprint of a file's bytes (FNV-1a 64), to show a file did not change.
public func fileFingerprint(_ path: String) -> UInt64? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    var hash: UInt64 = 0xcbf29ce484222325
    for byte in data {
        hash ^= UInt64(byte)
        hash = hash &* 0x100000001b3
    }
    return hash
}

/// A fingerprint of what a database holds, not of its bytes: every table's name and every row in
/// the table's key order, after `PRAGMA integrity_check` says `ok` (else the fingerprint is the
/// check's complaint). A transaction rolled back, or killed before its commit, leaves it unchanged
/// even though SQLite may have rewritten the file's header.
public func databaseFingerprint(_ path: String) -> String? {
    guard FileManager.default.fileExists(atPath: path),
          let database = try? Database(path: path, mode: .readOnly) else { return nil }
    do {
        let integrity = try database.integrityCheck()
        guard integrity == ["ok"] else { return "integrity_check: " + integrity.joined(separator: "; ") }
        var tables: [String] = []
        let master = Query(table: "sqlite_master").select(Column("name"))
            .filter(Column("type") == "table").sorted(by: [Column("name").ascending])
        try database.forEachRow(SQLGenerator.prepare(master)) { tables.append($0.string(0)) }
        var hash: UInt64 = 0xcbf29ce484222325
        func mix(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100000001b3
            }
            hash ^= 0xFF
            hash = hash &* 0x100000001b3
        }
        var summary: [String] = []
        for table in tables {
            var rows = 0
            try database.forEachRow(SQLGenerator.prepare(Query(table: table))) { row in
                rows += 1
                var index = 0
                while index < row.count {
                    mix(row.value(index).literalDescription)
                    index += 1
                }
            }
            summary.append("\(table):\(rows)")
        }
        return summary.joined(separator: " ") + " #" + String(hash, radix: 16)
    } catch {
        return "unreadable: \(error)"
    }
}
