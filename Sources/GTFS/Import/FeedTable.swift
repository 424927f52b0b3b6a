/// One GTFS file being read: its columns looked up by name, and typed field access whose errors
/// name the file, the line and the field.
final class FeedTable {
    let file: String
    private let positions: [String: Int]
    let header: [String]
    /// How the file's bytes were read (for messages about text that is not).
    let decoder: TextDecoder?

    init(file: String, header: [String], decoder: TextDecoder? = nil) {
        self.file = file
        self.header = header
        self.decoder = decoder
        var positions: [String: Int] = [:]
        for (index, name) in header.enumerated() where positions[name] == nil { positions[name] = index }
        self.positions = positions
    }

    /// The position of a column the file must have.
    func required(_ name: String) throws -> Int {
        guard let index = positions[name] else { throw FeedError(file: file, message: "missing required column \(name)") }
        return index
    }

    /// The position of an optional column, or nil.
    func optional(_ name: String) -> Int? { positions[name] }
}

/// Typed reading of one record's fields, throwing `FeedError`s that point at the field.
struct FieldReader {
    let table: FeedTable
    let record: CSVRecord

    var line: Int { record.line }

    func error(_ column: Int, _ message: String) -> FeedError {
        FeedError(file: table.file, line: record.line, field: table.header[column], message: message)
    }

    /// Why `column` is not text: a NUL byte, or bytes that are not UTF-8.
    func textError(_ column: Int) -> FeedError {
        if record.withBytes(column, { $0.contains(0) }) {
            return error(column, "contains a NUL byte, which GTFS text cannot hold")
        }
        guard let decoder = table.decoder else {
            return error(column, "is not UTF-8 text (give --encoding with the feed's encoding: \(TextEncoding.names))")
        }
        if decoder.mixesEncodings {
            return error(column, "is not UTF-8 text, but earlier lines of the file are: the file mixes encodings; give --encoding to read all of it one way (\(TextEncoding.names))")
        }
        switch decoder.reading {
        case .utf16?: return error(column, "is not valid UTF-16 text (a surrogate without its pair, or an odd number of bytes)")
        default:
            if decoder.forced == .utf8 {
                return error(column, "is not UTF-8 text (--encoding utf-8 was given; give the feed's encoding instead: \(TextEncoding.names))")
            }
            return error(column, "is not UTF-8 text: the file ends inside a character (is it cut short?)")
        }
    }

    /// The text of `column`, or nil when the column is absent or the field empty.
    func text(_ column: Int?) throws -> String? {
        guard let column else { return nil }
        guard let value = record.string(column) else { throw textError(column) }
        return value.isEmpty ? nil : value
    }

    /// Checks that `column` holds valid UTF-8 without NUL bytes, without making a `String` when the
    /// bytes are plain ASCII (the common case on the hot path).
    func validateText(_ column: Int?) throws {
        guard let column else { return }
        let valid = record.withBytes(column) { bytes -> Bool in
            var ascii = true
            for byte in bytes {
                if byte == 0 { return false }
                if byte >= 0x80 { ascii = false }
            }
            return ascii || String(validating: bytes, as: UTF8.self) != nil
        }
        if !valid { throw textError(column) }
    }

    /// The text of a column that must have a value.
    func requiredText(_ column: Int) throws -> String {
        guard let value = try text(column) else { throw error(column, "is empty but required") }
        return value
    }

    /// The integer in `column`, or nil when absent or empty.
    func int(_ column: Int?) throws -> Int? {
        guard let column else { return nil }
        return try record.withBytes(column) { bytes -> Int? in
            if bytes.isEmpty { return nil }
            guard let value = parseInteger(bytes) else {
                throw error(column, "'\(String(decoding: bytes, as: UTF8.self))' is not a whole number")
            }
            return value
        }
    }

    /// An integer that must be one of `allowed` when present.
    func code(_ column: Int?, allowed: ClosedRange<Int>) throws -> Int? {
        guard let column, let value = try int(column) else { return nil }
        guard allowed.contains(value) else {
            throw error(column, "'\(value)' is not one of \(allowed.lowerBound)–\(allowed.upperBound)")
        }
        return value
    }

    /// A decimal number in `column` (`12.5`, `-3`, `1e-3`), or nil when absent or empty.
    /// Refuses decimal commas, NaN, infinities and numbers out of Double's range.
    func double(_ column: Int?) throws -> Double? {
        guard let column else { return nil }
        return try record.withBytes(column) { bytes -> Double? in
            if bytes.isEmpty { return nil }
            let text = String(decoding: bytes, as: UTF8.self)
            let plain = bytes.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B || $0 == 0x65 || $0 == 0x45 }
            guard plain, let value = Double(text), value.isFinite else {
                throw error(column, "'\(text)' is not a decimal number (use a point, not a comma)")
            }
            return value
        }
    }

    /// A GTFS time (`H:MM:SS`) in `column` as seconds, or nil when absent or empty.
    func time(_ column: Int?) throws -> Int? {
        guard let column else { return nil }
        return try record.withBytes(column) { bytes -> Int? in
            if bytes.isEmpty { return nil }
            guard let seconds = GTFSTime.seconds(utf8: bytes) else {
                throw error(column, "'\(String(decoding: bytes, as: UTF8.self))' is not a GTFS time (H:MM:SS, minutes and seconds below 60)")
            }
            return seconds
        }
    }

    /// A GTFS date (`YYYYMMDD`) in a column that must have one.
    func date(_ column: Int) throws -> ServiceDate {
        try record.withBytes(column) { bytes -> ServiceDate in
            let text = String(decoding: bytes, as: UTF8.self)
            if bytes.isEmpty { throw error(column, "is empty but required") }
            guard let date = ServiceDate(gtfs: text) else {
                throw error(column, "'\(text)' is not a date (YYYYMMDD)")
            }
            return date
        }
    }

    /// A GTFS date in an optional column.
    func optionalDate(_ column: Int?) throws -> ServiceDate? {
        guard let column, !record.isEmpty(column) else { return nil }
        return try date(column)
    }

    /// True when `column` is absent or its field empty.
    func isEmpty(_ column: Int?) -> Bool {
        guard let column else { return true }
        return record.isEmpty(column)
    }

    /// Calls `body` with the raw bytes of `column` (empty when absent).
    func withBytes<T>(_ column: Int?, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        guard let column else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try record.withBytes(column, body)
    }
}

/// An optionally signed decimal integer from ASCII bytes, or nil.
@inline(__always)
func parseInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    var negative = false
    if bytes.count > 0, bytes[0] == 0x2D || bytes[0] == 0x2B {
        negative = bytes[0] == 0x2D
        index = 1
    }
    guard index < bytes.count, bytes.count - index <= 18 else { return nil }
    var value = 0
    while index < bytes.count {
        let digit = bytes[index] &- 0x30
        guard digit < 10 else { return nil }
        value = value &* 10 &+ Int(digit)
        index += 1
    }
    return negative ? -value : value
}
