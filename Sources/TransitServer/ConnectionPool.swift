import Foundation
import FetchRequest
import GTFS
import TransitCommands
#if canImport(Glibc)
import Glibc
#endif

/// The server's read-only connections to the database, each owned by a thread of its own that
/// answers one question after another with it (its statements prepared once).
///
/// Questions wait in a queue of bounded length (beyond it the server is saturated: 503) and are
/// taken oldest first. At most one question per core runs at once, so that short questions do
/// not preempt one another and the event loops; a question running longer than `slowAfter` (a
/// heavy predicate, a cold disk) stops counting, and another thread takes the next question,
/// up to one per connection. The thread that went idle last is woken first, so the others stay
/// cold: the memory a thread touches (its stack, its malloc arena) is touched once, and the
/// server's memory stays flat under load. Dispatch's pool, used before, added a worker whenever
/// its once-a-second sample found fewer workers runnable than cores while work waited (one
/// waiting on a lock is enough), each worth about 300 KB of resident memory, at any time of a
/// long run: RssAnon rose in steps, 4.7 -> 5.6 MB over 4.9 million requests.
///
/// Questions never run on the event loops, so a slow one holds up no other connection's
/// reading and writing. Each question sees one committed state of the file
/// (`startNextQuestion`); when `transit import` has replaced the file (the atomic swap gives it
/// a new inode), a connection opens the new file first.
final class ConnectionPool: @unchecked Sendable {
    /// Work that needs a connection: it runs on the connection's thread.
    typealias Work = @Sendable (PooledConnection) -> Void

    /// The database file.
    let path: String
    /// How many questions may wait for a connection before the server says 503.
    let queueLimit: Int
    /// Each question's budget of SQLite time, in milliseconds.
    let timeLimit: Int
    /// How many questions run at once while none is slow: one per core.
    let runningTarget: Int
    /// After how long a running question no longer counts against `runningTarget`: 50 ms, a
    /// hundred times a usual question, and longer than the scheduler keeps a busy thread waiting
    /// for a core (with 5 ms, threads were woken for questions that were only preempted).
    static let slowAfter: UInt64 = 50_000_000

    private let threads: [QuestionThread]
    /// The threads waiting for work, the last to go idle on top.
    private var idle: [QuestionThread] = []
    /// The work waiting for a thread, first in first out: taken from `outbox`, which is
    /// refilled from `inbox` reversed when it runs out.
    private var inbox: [Work] = []
    private var outbox: [Work] = []
    /// Guards everything above and each thread's `startedAt` and `woken`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(path: String, connections: Int, queueLimit: Int, timeLimit: Int, cores: Int) {
        self.path = path
        self.queueLimit = queueLimit
        self.timeLimit = timeLimit
        runningTarget = max(1, cores)
        pthread_mutex_init(mutex, nil)
        threads = (0..<max(connections, 1)).map { QuestionThread(index: $0, connection: PooledConnection(path: path)) }
        for thread in threads {
            let body = Thread { [unowned self] in self.serve(on: thread) }
            body.name = "transit-question-\(thread.index)"
            body.start()
        }
    }

    /// Opens one connection now, so a database that cannot be read is said at start-up, not at
    /// the first request.
    func check() throws {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        // No question has run yet: the threads are idle or starting, and take no work while
        // the pool's lock is held.
        try threads[0].connection.ready(file: FileIdentity(path: path)).finishQuestion()
    }

    /// Runs `work` on a connection's thread: at once, or when a thread is free. False when the
    /// queue is full (the server says 503); `work` then never runs.
    func submit(_ work: @escaping Work) -> Bool {
        pthread_mutex_lock(mutex)
        guard inbox.count + outbox.count < queueLimit + idle.count else {
            pthread_mutex_unlock(mutex)
            return false
        }
        inbox.append(work)
        var woken: QuestionThread?
        if !idle.isEmpty {
            let now = Self.now()
            if threads.count(where: { $0.isRunning(sinceAfter: now) }) < runningTarget {
                woken = idle.removeLast()
                woken?.woken = true
                woken?.startedAt = now
            }
        }
        pthread_mutex_unlock(mutex)
        woken?.wake()
        return true
    }

    /// A thread's life: take the work that waited longest, answer it with the thread's
    /// connection, again; wait to be woken when there is none.
    private func serve(on thread: QuestionThread) -> Never {
        pthread_mutex_lock(mutex)
        while true {
            if outbox.isEmpty && !inbox.isEmpty {
                outbox = inbox.reversed()
                inbox.removeAll(keepingCapacity: true)
            }
            if let work = outbox.popLast() {
                thread.startedAt = Self.now()
                pthread_mutex_unlock(mutex)
                work(thread.connection)
                pthread_mutex_lock(mutex)
                continue
            }
            thread.startedAt = 0
            thread.woken = false
            idle.append(thread)
            while !thread.woken { thread.wait(releasing: mutex) }
        }
    }

    /// Nanoseconds on the monotonic clock.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

/// A thread of the pool: its connection, and when its question started (0 while idle).
private final class QuestionThread: @unchecked Sendable {
    let index: Int
    let connection: PooledConnection
    /// When the running question started, on `ConnectionPool.now()`'s clock; 0 while idle.
    var startedAt: UInt64 = 0
    /// Set by the thread that hands this one work.
    var woken = false
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(index: Int, connection: PooledConnection) {
        self.index = index
        self.connection = connection
        pthread_cond_init(condition, nil)
    }

    /// Whether a question runs here that started less than `slowAfter` before `now`.
    func isRunning(sinceAfter now: UInt64) -> Bool {
        startedAt != 0 && now &- startedAt < ConnectionPool.slowAfter
    }

    /// Waits to be woken, releasing `mutex` meanwhile.
    func wait(releasing mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        pthread_cond_wait(condition, mutex)
    }

    func wake() {
        pthread_cond_signal(condition)
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
