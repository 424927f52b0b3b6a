import CSQLite
#if canImport(Glibc)
import Glibc
#endif

extension Database {
    /// Interrupts whatever this connection runs once `milliseconds` have passed from now: the
    /// running statement then fails with `SQLITE_INTERRUPT` (`DatabaseError.isInterrupt`). A
    /// server (`transit-serve`) gives every question a budget so no input can hold a connection
    /// for long. SQLite calls the check every 1,000 virtual-machine steps (microseconds); nil
    /// removes the budget.
    public func limitTime(toMilliseconds milliseconds: Int?) {
        if let store {
            // A failure here is the connection's, and its next statement reports it.
            try? store.limitTime(toMilliseconds: milliseconds)
            return
        }
        guard let milliseconds else {
            sqlite3_progress_handler(handle, 0, nil, nil)
            timeBudget.deadline = 0
            return
        }
        timeBudget.deadline = TimeBudget.now() + UInt64(max(milliseconds, 0)) * 1_000_000
        sqlite3_progress_handler(handle, 1_000, { context in
            guard let context else { return 0 }
            let budget = Unmanaged<TimeBudget>.fromOpaque(context).takeUnretainedValue()
            return TimeBudget.now() >= budget.deadline ? 1 : 0
        }, Unmanaged.passUnretained(timeBudget).toOpaque())
    }
}

/// The deadline `Database.limitTime` set, in monotonic nanoseconds (the progress handler's context).
final class TimeBudget {
    var deadline: UInt64 = 0

    static func now() -> UInt64 { monotonicNanoseconds() }
}
