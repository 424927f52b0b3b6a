import NIOConcurrencyHelpers

/// A thread of `ConnectionPool`: its connection, when its question started, and the condition it
/// sleeps on while idle, so the pool wakes exactly the thread it hands work to.
final class QuestionThread: @unchecked Sendable {
    let index: Int
    let connection: PooledConnection
    /// When the running question started, in `monotonicSeconds()`; 0 while idle. Read and
    /// written with the pool's lock held.
    var startedAt = 0.0
    /// Whether the thread was handed work since it went idle: set by the thread handing it work
    /// (`wake`), cleared by this thread when it wakes (`waitUntilWoken`).
    private let woken = ConditionLock(value: false)

    init(index: Int, connection: PooledConnection) {
        self.index = index
        self.connection = connection
    }

    /// Whether a question runs here that started less than `slowAfter` before `now`.
    func isRunning(sinceAfter now: Double) -> Bool {
        startedAt != 0 && now - startedAt < ConnectionPool.slowAfter
    }

    /// Sleeps until `wake` is called (at once when it was called since the thread went idle).
    func waitUntilWoken() {
        woken.lock(whenValue: true)
        woken.unlock(withValue: false)
    }

    /// Wakes the thread, which the caller has taken off the pool's idle list.
    func wake() {
        woken.lock()
        woken.unlock(withValue: true)
    }
}
