#if canImport(Glibc)
import Glibc
#endif

/// Writes `text` to stderr unbuffered (progress, `--explain`, warnings), keeping stdout clean for
/// JSON, CSV and GeoJSON.
public func writeToStandardError(_ text: String) {
    writeAll(text, to: 2)
}

/// Writes `text` to stdout, without Foundation.
public func writeToStandardOutput(_ text: String) {
    writeAll(text, to: 1)
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
