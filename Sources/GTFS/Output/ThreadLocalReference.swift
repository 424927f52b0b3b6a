#if canImport(Glibc)
import Glibc
#endif

/// A reference each thread holds for itself, set for the length of a call: what a thread's code
/// reads without it being passed down (the output a server's thread captures, the connection a
/// hosted question runs on). One pthread key, made with the slot.
public final class ThreadLocalReference<Value: AnyObject>: @unchecked Sendable {
    private let key: pthread_key_t

    public init() {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        self.key = key
    }

    /// The calling thread's value, if a `with` call around it set one.
    public var current: Value? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Runs `body` with `value` as the calling thread's value (the previous one after it).
    public func with<Result>(_ value: Value, _ body: () throws -> Result) rethrows -> Result {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(value).toOpaque())
        defer { pthread_setspecific(key, previous) }
        return try body()
    }
}
