/// Where one field lies in the reader's buffer.
struct FieldSpan {
    var start: Int
    var end: Int
    var quoted: Bool
    /// True when the field holds doubled quotes that must be undoubled.
    var escaped: Bool
}

/// One record of a CSV file, valid only during the callback that receives it.
///
/// Fields are read as bytes (no copy), as text (validated UTF-8), or parsed straight to numbers.
/// Every accessor trims spaces and tabs around the value.
public struct CSVRecord {
    let buffer: UnsafeBufferPointer<UInt8>
    let spans: UnsafeBufferPointer<FieldSpan>
    /// The line the record starts on (the header is line 1).
    public let line: Int

    /// How many fields the record has.
    public var count: Int { spans.count }

    /// Calls `body` with field `index`'s bytes, trimmed and with doubled quotes undoubled;
    /// an empty buffer for a field the record does not have.
    @inline(__always)
    public func withBytes<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        guard index >= 0, index < spans.count else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        let span = spans[index]
        var start = span.start
        var end = span.end
        while start < end, buffer[start] == 0x20 || buffer[start] == 0x09 { start += 1 }
        while end > start, buffer[end - 1] == 0x20 || buffer[end - 1] == 0x09 { end -= 1 }
        let slice = UnsafeBufferPointer(rebasing: buffer[start..<end])
        guard span.escaped else { return try body(slice) }
        var undoubled: [UInt8] = []
        undoubled.reserveCapacity(slice.count)
        var skipNext = false
        for byte in slice {
            if skipNext { skipNext = false; continue }
            undoubled.append(byte)
            if byte == 0x22 { skipNext = true }
        }
        return try undoubled.withUnsafeBufferPointer(body)
    }

    /// True when field `index` is missing or holds only spaces.
    public func isEmpty(_ index: Int) -> Bool {
        withBytes(index) { $0.isEmpty }
    }

    /// Field `index` as text, or nil when it is not valid UTF-8 or holds a NUL byte.
    public func string(_ index: Int) -> String? {
        withBytes(index) { bytes in
            if bytes.isEmpty { return "" }
            if bytes.contains(0) { return nil }
            return String(validating: bytes, as: UTF8.self)
        }
    }
}
