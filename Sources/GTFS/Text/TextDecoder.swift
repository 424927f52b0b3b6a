/// Turns one file's bytes, chunk by chunk, into UTF-8 for the CSV reader, whatever the file's
/// encoding: a UTF-8 or UTF-16 byte-order mark decides; else UTF-8 as long as the bytes are valid
/// UTF-8; at the first byte that is not (with only ASCII before it, so nothing read so far changes
/// meaning) the rest is read as Windows-1252. With a forced encoding, that one is used.
///
/// UTF-8 costs one pass looking for bytes above 0x7F, and a validation of the chunks that have
/// some; the chunks are handed on as they are. A file that holds valid multi-byte UTF-8 and then
/// bytes that are not is passed on unchanged, so the field is refused with its line
/// (`mixesEncodings` says why).
final class TextDecoder {
    /// How the file turned out to be read.
    enum Reading: Equatable {
        case utf8
        case utf16(bigEndian: Bool)
        case singleByte(TextEncoding)
    }

    let file: String
    /// The encoding `--encoding` forced, if any.
    let forced: TextEncoding?
    private(set) var reading: Reading?
    /// True once the file is known to be read as Windows-1252 without being told to.
    private(set) var detectedWindows1252 = false
    /// True when valid multi-byte UTF-8 was followed by bytes that are not UTF-8.
    private(set) var mixesEncodings = false
    private var sawMultiByteUTF8 = false
    /// Bytes of a sequence cut by the chunk's end (UTF-8: at most 3; UTF-16: 1 byte or a high surrogate).
    private var carry: [UInt8] = []
    private var output: [UInt8] = []
    private var started = false
    /// The file's first bytes, until there are enough to see a byte-order mark.
    private var beginning: [UInt8] = []

    init(file: String, forced: TextEncoding?) {
        self.file = file
        self.forced = forced
        output.reserveCapacity(1 << 16)
    }

    /// Decodes `chunk` and calls `body` with UTF-8 bytes (possibly none, possibly the chunk itself).
    func decode(_ chunk: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let bytes = UnsafeBufferPointer(start: chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), count: chunk.count)
        guard started else {
            // The first bytes decide (a mark is 2 or 3 bytes): collect at least 3 unless the file is shorter.
            beginning.append(contentsOf: bytes)
            if beginning.count >= 3 { try start(body) }
            return
        }
        try decodeBody(bytes, body)
    }

    /// Ends the file: a UTF-16 sequence cut short at its end is passed on as a byte that is not
    /// text (so its field is refused with its line); a cut UTF-8 sequence is passed on as it is.
    func finish(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        if !started { try start(body) }
        guard !carry.isEmpty else { return }
        if case .utf16? = reading {
            output = [0xFF]
        } else {
            output = carry
        }
        carry = []
        try emit(body)
    }

    /// Chooses the reading from the file's first bytes, drops a UTF-16 mark, decodes them.
    private func start(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        started = true
        var head = beginning
        beginning = []
        choose(head: head)
        if case .utf16? = reading, head.count >= 2, (head[0] == 0xFF && head[1] == 0xFE) || (head[0] == 0xFE && head[1] == 0xFF) {
            head.removeFirst(2)
        }
        try head.withUnsafeBufferPointer { try decodeBody($0, body) }
    }

    /// The reading: the forced encoding (UTF-16's byte order from its mark, else little-endian), else
    /// UTF-16 when a mark says so, else UTF-8 (which may turn to Windows-1252 later).
    private func choose(head: [UInt8]) {
        let utf16Mark = head.count >= 2 && ((head[0] == 0xFF && head[1] == 0xFE) || (head[0] == 0xFE && head[1] == 0xFF))
        switch forced {
        case .utf16?:
            reading = .utf16(bigEndian: head.count >= 2 && head[0] == 0xFE && head[1] == 0xFF)
        case .utf8?: reading = .utf8
        case let single?: reading = .singleByte(single)
        case nil:
            if utf16Mark {
                reading = .utf16(bigEndian: head[0] == 0xFE)
            } else {
                reading = .utf8
            }
        }
    }

    private func decodeBody(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard bytes.count > 0 else { return }
        switch reading! {
        case .utf8: try passUTF8(bytes, body)
        case .utf16(let bigEndian): try transcodeUTF16(bytes, bigEndian: bigEndian, body)
        case .singleByte(let encoding): try transcodeSingleByte(bytes, encoding, body)
        }
    }

    private func emit(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !output.isEmpty else { return }
        try output.withUnsafeBytes { try body($0) }
        output.removeAll(keepingCapacity: true)
    }

    // MARK: UTF-8

    private func passUTF8(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        if forced == .utf8 || mixesEncodings {
            try body(UnsafeRawBufferPointer(bytes))
            return
        }
        // Fast path: no carried bytes and pure ASCII.
        if carry.isEmpty, !bytes.contains(where: { $0 >= 0x80 }) {
            try body(UnsafeRawBufferPointer(bytes))
            return
        }
        var all = carry
        carry = []
        all.append(contentsOf: bytes)
        let (validPrefix, cut, invalidAt) = TextDecoder.scanUTF8(all)
        if let invalidAt {
            if sawMultiByteUTF8 || all[..<invalidAt].contains(where: { $0 >= 0x80 }) {
                // Valid UTF-8 text and then other bytes: pass it on for the field check to name.
                mixesEncodings = true
                try all.withUnsafeBytes { try body($0) }
                return
            }
            // Only ASCII so far: this file is Windows-1252 from the start.
            detectedWindows1252 = true
            reading = .singleByte(.windows1252)
            try all.withUnsafeBufferPointer { try transcodeSingleByte($0, .windows1252, body) }
            return
        }
        if validPrefix > 0 { sawMultiByteUTF8 = sawMultiByteUTF8 || all[..<validPrefix].contains { $0 >= 0x80 } }
        carry = Array(all[validPrefix..<(validPrefix + cut)])
        try all.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<validPrefix])) }
    }

    /// Scans `bytes` as UTF-8: the length of the valid prefix, how many bytes at the end begin a
    /// sequence the chunk cuts (0 to 3), and the position of the first invalid byte, if any.
    static func scanUTF8(_ bytes: [UInt8]) -> (valid: Int, cut: Int, invalid: Int?) {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return (index, 0, index)
            }
            for offset in 1..<length {
                guard index + offset < count else {
                    // The chunk ends inside the sequence: valid so far, finish it with the next chunk.
                    return (index, count - index, nil)
                }
                let byte = bytes[index + offset]
                let (min, max) = offset == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
                guard byte >= min && byte <= max else { return (index, 0, index) }
            }
            index += length
        }
        return (count, 0, nil)
    }

    // MARK: UTF-16

    private func transcodeUTF16(_ bytes: UnsafeBufferPointer<UInt8>, bigEndian: Bool, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        output.removeAll(keepingCapacity: true)
        var units = carry
        carry = []
        units.append(contentsOf: bytes)
        var index = 0
        while index + 1 < units.count {
            let unit = bigEndian ? UInt32(units[index]) << 8 | UInt32(units[index + 1]) : UInt32(units[index + 1]) << 8 | UInt32(units[index])
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard index + 3 < units.count else { break }  // the low surrogate is in the next chunk
                let next = bigEndian ? UInt32(units[index + 2]) << 8 | UInt32(units[index + 3]) : UInt32(units[index + 3]) << 8 | UInt32(units[index + 2])
                if next >= 0xDC00 && next <= 0xDFFF {
                    appendUTF8(0x10000 + ((unit - 0xD800) << 10) + (next - 0xDC00))
                    index += 4
                } else {
                    output.append(0xFF)  // a lone surrogate: not text, refused with its line
                    index += 2
                }
                continue
            }
            if unit >= 0xDC00 && unit <= 0xDFFF { output.append(0xFF) } else { appendUTF8(unit) }
            index += 2
        }
        carry = Array(units[index...])
        try emit(body)
    }

    private func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80: output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | (scalar >> 6)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | (scalar >> 12)))
            output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            output.append(UInt8(0xF0 | (scalar >> 18)))
            output.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    // MARK: Single-byte encodings

    private func transcodeSingleByte(_ bytes: UnsafeBufferPointer<UInt8>, _ encoding: TextEncoding, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        output.removeAll(keepingCapacity: true)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
            } else {
                appendUTF8(TextDecoder.scalar(of: byte, in: encoding))
            }
        }
        try emit(body)
    }

    /// The character byte `byte` (0x80 or above) stands for in a single-byte encoding.
    static func scalar(of byte: UInt8, in encoding: TextEncoding) -> UInt32 {
        switch encoding {
        case .windows1252:
            if byte >= 0x80 && byte <= 0x9F { return windows1252High[Int(byte - 0x80)] }
            return UInt32(byte)
        case .iso885915:
            switch byte {
            case 0xA4: return 0x20AC
            case 0xA6: return 0x0160
            case 0xA8: return 0x0161
            case 0xB4: return 0x017D
            case 0xB8: return 0x017E
            case 0xBC: return 0x0152
            case 0xBD: return 0x0153
            case 0xBE: return 0x0178
            default: return UInt32(byte)
            }
        default:
            return UInt32(byte)
        }
    }

    /// Windows-1252's 0x80–0x9F (the five bytes it leaves undefined keep their C1 control code,
    /// as the WHATWG encoding standard reads them).
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}
