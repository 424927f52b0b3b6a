import FetchRequest
import Foundation
import NIOConcurrencyHelpers

/// The server's read-only connections to the database, each owned by a thread of its own that
/// answers one question after another with it (its statements prepared once).
///
/// Questions wait in a queue of bounded length (beyond it the server is saturated: 503) and are
/// taken oldest first. At most one question per core runs at once (on a file: on a PostgreSQL
/// server, whose backends do the work, one per connection), so that short questions do
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
    /// After how long a running question no longer counts against `runningTarget`, in seconds:
    /// 50 ms, a hundred times a usual question, and longer than the scheduler keeps a busy thread
    /// waiting for a core (with 5 ms, threads were woken for questions that were only preempted).
    static let slowAfter = 0.050

    private let threads: [QuestionThread]
    /// The threads waiting for work, the last to go idle on top.
    private var idle: [QuestionThread] = []
    /// The work waiting for a thread, first in first out: taken from `outbox`, which is
    /// refilled from `inbox` reversed when it runs out.
    private var inbox: [Work] = []
    private var outbox: [Work] = []
    /// Guards everything above and each thread's `startedAt`.
    private let lock = NIOLock()

    init(path: String, connections: Int, queueLimit: Int, timeLimit: Int, cores: Int) {
        self.path = path
        self.queueLimit = queueLimit
        self.timeLimit = timeLimit
        // A question asked of a server mostly waits for it (its backends do the work, on their own
        // processes): every connection may run one at once.
        runningTarget = StoreLocation.isPostgres(path) ? max(1, cores, connections) : max(1, cores)
        threads = (0..<max(connections, 1)).map { QuestionThread(index: $0, connection: PooledConnection(path: path)) }
        // The threads hold the pool: they run for the process's life, and a pool dropped at once
        // (its database missing: the server says so and exits) must not go while they start.
        for thread in threads {
            let body = Thread { self.serve(on: thread) }
            body.name = "transit-question-\(thread.index)"
            body.start()
        }
    }

    /// Opens one connection now, so a database that cannot be read is said at start-up, not at
    /// the first request.
    func check() throws {
        // No question has run yet: the threads are idle or starting, and take no work while
        // the pool's lock is held.
        try lock.withLock {
            try threads[0].connection.ready(file: FileIdentity(path: path)).finishQuestion()
        }
    }

    /// Runs `work` on a connection's thread: at once, or when a thread is free. False when the
    /// queue is full (the server says 503); `work` then never runs.
    func submit(_ work: @escaping Work) -> Bool {
        var woken: QuestionThread?
        let queued = lock.withLock { () -> Bool in
            guard inbox.count + outbox.count < queueLimit + idle.count else { return false }
            inbox.append(work)
            woken = idleThreadToWake()
            return true
        }
        woken?.wake()
        return queued
    }

    /// The idle thread to hand new work to, the last to go idle, counted as running from now;
    /// nil when none is idle or as many questions as `runningTarget` run. The lock is held.
    private func idleThreadToWake() -> QuestionThread? {
        guard !idle.isEmpty else { return nil }
        let now = monotonicSeconds()
        guard threads.count(where: { $0.isRunning(sinceAfter: now) }) < runningTarget else { return nil }
        let thread = idle.removeLast()
        thread.startedAt = now
        return thread
    }

    /// A thread's life: take the work that waited longest, answer it with the thread's
    /// connection, again; wait to be woken when there is none.
    private func serve(on thread: QuestionThread) -> Never {
        while true {
            if let work = nextWork(for: thread) {
                work(thread.connection)
            } else {
                thread.waitUntilWoken()
            }
        }
    }

    /// The work that waited longest, `thread` counted as running it from now; nil when none
    /// waits, and `thread` is then on the idle list.
    private func nextWork(for thread: QuestionThread) -> Work? {
        lock.withLock { () -> Work? in
            if outbox.isEmpty && !inbox.isEmpty {
                outbox = inbox.reversed()
                inbox.removeAll(keepingCapacity: true)
            }
            if let work = outbox.popLast() {
                thread.startedAt = monotonicSeconds()
                return work
            }
            thread.startedAt = 0
            idle.append(thread)
            return nil
        }
    }
}
