#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds on the one clock every timing reads, a clock that never jumps (CLOCK_MONOTONIC):
/// requests, time budgets, import steps, the planner's counters, the server's log and benchmarks.
public func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// `monotonicNanoseconds()` in seconds.
public func monotonicSeconds() -> Double {
    Double(monotonicNanoseconds()) / 1e9
}
