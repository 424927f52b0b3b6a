#if canImport(Glibc)
import Glibc
#endif

/// Buffered output to a file descriptor: bytes are copied into a 256 KiB buffer and written when it
/// fills, so a listing of millions of rows streams in constant memory with few system calls.
/// Standard output goes to the thread's `CapturedOutput` while it captures.
public final class StreamWriter {
    private let descriptor: Int32
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity = 1 << 18
    private var count = 0
    /// True once a write failed (a closed pipe, a full disk): callers stop producing.
    public private(set) var failed = false

    /// A writer to stdout (1) or another descriptor.
    public init(descriptor: Int32 = 1) {
        self.descriptor = descriptor
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        flush()
        buffer.deallocate()
    }

    /// Appends raw bytes.
    @inline(__always)
    public func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        if count + bytes.count > capacity { flush() }
        if bytes.count > capacity {
            writeAll(bytes)
            return
        }
        if let base = bytes.baseAddress { (buffer + count).update(from: base, count: bytes.count) }
        count += bytes.count
    }

    /// Appends one byte.
    @inline(__always)
    public func write(byte: UInt8) {
        if count == capacity { flush() }
        buffer[count] = byte
        count += 1
    }

    /// Appends a string's UTF-8.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    /// Appends a decimal integer without making a String.
    public func write(integer value: Int) {
        if value < 0 {
            write(byte: 0x2D)
            write(integer: -value)
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var remaining = value
        var length = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[19 - length] = UInt8(0x30 + remaining % 10)
                remaining /= 10
                length += 1
            } while remaining > 0
            write(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + 20 - length, count: length))
        }
    }

    /// Writes what is buffered.
    public func flush() {
        guard count > 0 else { return }
        writeAll(UnsafeBufferPointer(start: buffer, count: count))
        count = 0
    }

    private func writeAll(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !failed, let base = bytes.baseAddress else { return }
        if descriptor == 1, let capture = CapturedOutput.current {
            capture.standardOutput.append(contentsOf: bytes)
            return
        }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 {
                failed = true
                return
            }
            offset += written
        }
    }
}
