/// Rows being written in `COPY`'s text format: fields separated by tabs, rows ended by newlines,
/// `\N` for NULL, and backslash, tab, newline and carriage return escaped.
public struct CopyText {
    /// The bytes not yet sent.
    private var bytes: [UInt8] = []
    /// How many bytes are kept before they are sent: a few chunks fit in a socket's buffer
    /// (208 KiB by default on Linux), so the server parses one while the next is written. With a
    /// megabyte, each waited for the other: both processes at half a core, the large feed's `COPY`
    /// 12.4–12.8 s against 8.6–10.2 s now (three imports each, in turn).
    private static let chunk = 1 << 16

    init() { bytes.reserveCapacity(CopyText.chunk + 4096) }

    /// Ends a field (not the row's last).
    public mutating func endField() { bytes.append(0x09) }

    /// Ends the row, sending the buffer through `connection` once it holds a chunk.
    public mutating func endRow(sendingThrough connection: PostgresConnection) throws {
        bytes.append(0x0A)
        if bytes.count >= CopyText.chunk { try flush(into: connection) }
    }

    /// A NULL field.
    public mutating func appendNull() { bytes.append(contentsOf: [0x5C, 0x4E]) }

    /// A number or other text that needs no escapes.
    public mutating func appendPlain(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// An integer in decimal, written straight into the buffer (no String made).
    public mutating func append(integer value: Int64) {
        if value < 0 { bytes.append(0x2D) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            repeat {
                digits[19 - count] = UInt8(truncatingIfNeeded: 0x30 + magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    /// Text, escaped.
    public mutating func append(escaping text: UnsafeBufferPointer<UInt8>) {
        for byte in text {
            switch byte {
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            default: bytes.append(byte)
            }
        }
    }

    /// Bytes as a `bytea` in hex form (`\\x0a1b…`: the backslash itself escaped for COPY).
    public mutating func append(bytea: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: [0x5C, 0x5C, 0x78])
        let digits = Array("0123456789abcdef".utf8)
        for byte in bytea {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 15)])
        }
    }

    /// Sends what is kept.
    mutating func flush(into connection: PostgresConnection) throws {
        try bytes.withUnsafeBytes { try connection.send($0) }
        bytes.removeAll(keepingCapacity: true)
    }
}
