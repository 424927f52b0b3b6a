import FetchRequest
#if canImport(Glibc)
import Glibc
#endif

/// Draws one self-overwriting progress line on stderr: file, rows, rows per second.
public final class TerminalProgress: ImportProgress {
    public init() {}

    private var file = ""
    private var fileStart = 0.0

    public func update(file: String, rows: Int) {
        let now = monotonicSeconds()
        if file != self.file {
            self.file = file
            fileStart = now
        }
        let elapsed = max(now - fileStart, 0.001)
        draw("\(file)  \(formatCount(rows)) rows  \(formatCount(Int(Double(rows) / elapsed))) rows/s")
    }

    public func step(_ description: String) {
        draw(description + "…")
    }

    public func clear() {
        writeToStandardError("\r\u{1B}[K")
    }

    private func draw(_ text: String) {
        writeToStandardError("\r\u{1B}[K" + text)
    }

}

