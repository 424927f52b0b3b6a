import Dispatch
import FetchRequest
import GTFS
import TransitCommands
#if canImport(Glibc)
import Glibc
#endif

/// The server's read-only connections to the database: one per question answered at a time,
/// each kept open (its statements prepared once) and handed to one question after another.
///
/// A question waits for a free connection in a queue of bounded length; beyond it the server is
/// saturated (503). Questions run on Dispatch's threads, never on the event loops, so a slow one
/// holds up no other connection's reading and writing. Each question sees one committed state of
/// the file (`startNextQuestion`); when `transit import` has replaced the file (the atomic swap
/// gives it a new inode), a connection opens the new file first.
final class ConnectionPool: @unchecked Sendable {
    /// Work that needs a connection: it runs on a Dispatch thread, holding the connection.
    typealias Work = @Sendable (PooledConnection) -> Void

    /// The database file.
    let path: String
    /// How many questions may wait for a connection before the server says 503.
    let queueLimit: Int
    /// Each question's budget of SQLite time, in milliseconds.
    let timeLimit: Int

    private var idle: [PooledConnection]
    /// The work waiting for a connection, first in first out: taken from `outbox`, which is
    /// refilled from `inbox` reversed when it runs out.
    private var inbox: [Work] = []
    private var outbox: [Work] = []
    private var mutex = pthread_mutex_t()

    init(path: String, connections: Int, queueLimit: Int, timeLimit: Int) {
        self.path = path
        self.queueLimit = queueLimit
        self.timeLimit = timeLimit
        idle = (0..<max(connections, 1)).map { _ in PooledConnection(path: path) }
        pthread_mutex_init(&mutex, nil)
    }

    /// Opens one connection now, so a database that cannot be read is said at start-up, not at
    /// the first request.
    func check() throws {
        try idle[0].ready(file: FileIdentity(path: path)).finishQuestion()
    }

    /// Runs `work` on a free connection, on a Dispatch thread: at once, or when a connection
    /// frees up. False when every connection is busy and the queue is full (the server says 503);
    /// `work` then never runs.
    func submit(_ work: @escaping Work) -> Bool {
        pthread_mutex_lock(&mutex)
        if let connection = idle.popLast() {
            pthread_mutex_unlock(&mutex)
            DispatchQueue.global().async { self.run(work, on: connection) }
            return true
        }
        guard inbox.count + outbox.count < queueLimit else {
            pthread_mutex_unlock(&mutex)
            return false
        }
        inbox.append(work)
        pthread_mutex_unlock(&mutex)
        return true
    }

    /// Runs `work` on `connection`, then hands the connection to the work that waited longest
    /// (on a new Dispatch block, behind the questions already queued there: one thread draining
    /// the queue made the questions assigned to other connections wait, and nearby's p99 went
    /// from 10 ms to 30-80 ms under wrk) or back to the idle ones.
    private func run(_ work: @escaping Work, on connection: PooledConnection) {
        work(connection)
        pthread_mutex_lock(&mutex)
        if outbox.isEmpty {
            outbox = inbox.reversed()
            inbox.removeAll(keepingCapacity: true)
        }
        if let next = outbox.popLast() {
            pthread_mutex_unlock(&mutex)
            DispatchQueue.global().async { self.run(next, on: connection) }
        } else {
            idle.append(connection)
            pthread_mutex_unlock(&mutex)
        }
    }
}

/// One connection of the pool, used by one question at a time.
final class PooledConnection: @unchecked Sendable {
    private let path: String
    private var transit: TransitDatabase?
    /// The device and inode of the file `transit` has open.
    private var identity: FileIdentity?
    /// The file's data version when `transit` last read it.
    private var dataVersion: Int64 = 0

    init(path: String) {
        self.path = path
    }

    /// The connection, opened (again, when the file was replaced: `current` is which file the
    /// path names now) and readied for a question: in a read transaction, which the caller ends
    /// (`finishQuestion`).
    @discardableResult
    func ready(file current: FileIdentity?) throws -> TransitDatabase {
        if let transit, current == identity {
            try transit.startNextQuestion()
            // Committed by another process since (a feed added in place, a realtime refresh): the
            // feeds the connection knows may have changed, so it opens the file again.
            if try transit.database.dataVersion() == dataVersion { return transit }
            try transit.finishQuestion()
        }
        transit = nil
        let opened = try TransitDatabase(path: path)
        try opened.prepareForManyQueries()
        try opened.finishQuestion()
        try opened.startNextQuestion()
        dataVersion = try opened.database.dataVersion()
        transit = opened
        identity = current
        return opened
    }

    /// Answers `question` within `timeLimit` milliseconds of SQLite time; `file` is which file the
    /// path names now.
    func answer(_ question: HostedQuestion, explain: Bool, timeLimit: Int, file: FileIdentity?) -> HostedAnswer {
        let transit: TransitDatabase
        do {
            transit = try ready(file: file)
        } catch {
            self.transit = nil
            return HostedAnswer(unavailable: String(describing: error))
        }
        transit.database.limitTime(toMilliseconds: timeLimit)
        defer {
            transit.database.limitTime(toMilliseconds: nil)
            // A connection that cannot end its transaction is opened anew for the next question.
            if (try? transit.finishQuestion()) == nil { self.transit = nil }
        }
        return question.answer(on: transit, explain: explain)
    }
}

/// Which file a path names now: device and inode (an atomic replace gives a new inode).
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The identity in a `stat` of the file.
    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
