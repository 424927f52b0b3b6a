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
/// saturated (503). Questions run on Dispatch's threads, never on the event loops (answered in the
/// request's own task instead, nearby's p99 went from 11-12 ms to 16 ms under wrk). Each question
/// sees one committed state of the file (`startNextQuestion`); when `transit import` has replaced
/// the file (the atomic swap gives it a new inode), a connection opens the new file first.
final class ConnectionPool: @unchecked Sendable {
    /// The database file.
    let path: String
    /// How many questions may wait for a connection before the server says 503.
    let queueLimit: Int
    /// Each question's budget of SQLite time, in milliseconds.
    let timeLimit: Int

    private var idle: [PooledConnection]
    private var waiting: [CheckedContinuation<PooledConnection, any Error>] = []
    private var mutex = pthread_mutex_t()

    /// The pool is full and so is its queue.
    struct Saturated: Error {}

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

    /// Answers `question` on a free connection, within the time budget; throws `Saturated` when
    /// every connection is busy and the queue is full. `file` is which file the path names now
    /// (the request looked once, for its entity tag too).
    func answer(_ question: HostedQuestion, explain: Bool, file: FileIdentity?) async throws -> HostedAnswer {
        let connection = try await acquire()
        defer { release(connection) }
        let timeLimit = timeLimit
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: connection.answer(question, explain: explain, timeLimit: timeLimit, file: file))
            }
        }
    }

    private func acquire() async throws -> PooledConnection {
        try await withCheckedThrowingContinuation { continuation in
            pthread_mutex_lock(&mutex)
            if let connection = idle.popLast() {
                pthread_mutex_unlock(&mutex)
                continuation.resume(returning: connection)
            } else if waiting.count >= queueLimit {
                pthread_mutex_unlock(&mutex)
                continuation.resume(throwing: Saturated())
            } else {
                waiting.append(continuation)
                pthread_mutex_unlock(&mutex)
            }
        }
    }

    private func release(_ connection: PooledConnection) {
        pthread_mutex_lock(&mutex)
        if waiting.isEmpty {
            idle.append(connection)
            pthread_mutex_unlock(&mutex)
        } else {
            let next = waiting.removeFirst()
            pthread_mutex_unlock(&mutex)
            next.resume(returning: connection)
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
