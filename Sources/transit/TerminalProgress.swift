import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// Draws one self-overwriting progress line on stderr: file, rows, rows per second.
final class TerminalProgress: ImportProgress {
    private var file = ""
    private var fileStart = 0.0

    func update(file: String, rows: Int) {
        let now = seconds()
        if file != self.file {
            self.file = file
            fileStart = now
        }
        let elapsed = max(now - fileStart, 0.001)
        draw("\(file)  \(formatCount(rows)) rows  \(formatCount(Int(Double(rows) / elapsed))) rows/s")
    }

    func step(_ description: String) {
        draw(description + "…")
    }

    func clear() {
        writeToStandardError("\r\u{1B}[K")
    }

    private func draw(_ text: String) {
        writeToStandardError("\r\u{1B}[K" + text)
    }

    private func seconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

/// `1234567` as `1,234,567`.
func formatCount(_ value: Int) -> String {
    let digits = String(abs(value))
    var result = ""
    for (index, character) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
        result.append(character)
    }
    return value < 0 ? "-" + result : result
}
