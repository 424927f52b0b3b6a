#if canImport(Glibc)
import Glibc
#endif

/// Writes `text` to stderr unbuffered (progress, `--explain`, warnings), keeping stdout clean for
/// JSON, CSV and GeoJSON. While a thread captures its output (`CapturedOutput`), it goes there.
public func writeToStandardError(_ text: String) {
    if let capture = CapturedOutput.current {
        capture.standardError += text
        return
    }
    writeAll(text, to: 2)
}

/// Writes `text` to stdout, without Foundation; while a thread captures its output
/// (`CapturedOutput`), it goes there.
public func writeToStandardOutput(_ text: String) {
    if let capture = CapturedOutput.current {
        capture.standardOutput.append(contentsOf: text.utf8)
        return
    }
    writeAll(text, to: 1)
}

/// What one thread writes to stdout and stderr while it answers a request for a server
/// (`transit-serve`), instead of the process's streams: the same commands then give the same
/// bytes to an HTTP client as to a terminal.
public final class CapturedOutput {
    /// The bytes written to standard output.
    public var standardOutput: [UInt8] = []
    /// The text written to standard error (notes, warnings).
    public var standardError = ""

    public init() {}

    /// The capture of the calling thread, if it captures.
    public static var current: CapturedOutput? {
        slot.current
    }

    /// Runs `body` with this thread's stdout and stderr captured; returns what it wrote.
    public static func capturing<Result>(_ body: () throws -> Result) rethrows -> (Result, CapturedOutput) {
        let capture = CapturedOutput()
        return (try slot.with(capture, body), capture)
    }

    /// The thread-specific slot of `current`.
    private static let slot = ThreadLocalReference<CapturedOutput>()
}

private func writeAll(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
