/// Little-endian packing of the journey planner's stored timetable: fixed-width integers and
/// reals appended to a byte array at import, read back in place (unaligned) at query time.
struct PackedWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    /// Appends `value` as 2 little-endian bytes.
    mutating func append(_ value: UInt16) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends `value` as 4 little-endian bytes.
    mutating func append(_ value: Int32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends `value` as 4 little-endian bytes.
    mutating func append(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends `value` as 8 little-endian bytes.
    mutating func append(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends `value`'s IEEE 754 bits as 8 little-endian bytes.
    mutating func append(_ value: Double) {
        append(Int64(bitPattern: value.bitPattern))
    }

    /// Appends one byte.
    mutating func append(_ value: UInt8) {
        bytes.append(value)
    }
}

/// Reads what `PackedWriter` wrote, in the same order; a read past the end is reported as a
/// damaged planner table (the caller says which), never a crash.
struct PackedReader {
    private let buffer: UnsafeRawBufferPointer
    /// Where the next read starts.
    private(set) var offset = 0

    init(_ buffer: UnsafeRawBufferPointer) {
        self.buffer = buffer
    }

    /// Thrown when the stored bytes end before what their header announces.
    struct Truncated: Error {}

    /// Whether `count` more bytes can be read.
    func hasBytes(_ count: Int) -> Bool { count >= 0 && offset + count <= buffer.count }

    mutating func int32() throws -> Int32 {
        guard hasBytes(4) else { throw Truncated() }
        defer { offset += 4 }
        return Int32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self))
    }

    mutating func uint32() throws -> UInt32 {
        guard hasBytes(4) else { throw Truncated() }
        defer { offset += 4 }
        return UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    mutating func int64() throws -> Int64 {
        guard hasBytes(8) else { throw Truncated() }
        defer { offset += 8 }
        return Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: Int64.self))
    }

    mutating func double() throws -> Double {
        Double(bitPattern: UInt64(bitPattern: try int64()))
    }

    mutating func uint8() throws -> UInt8 {
        guard hasBytes(1) else { throw Truncated() }
        defer { offset += 1 }
        return buffer[offset]
    }

    /// `count` little-endian integers of `Stored`'s width, as `Value`s (`Int64`s as `Int`s, say),
    /// in one pass over the buffer.
    mutating func integers<Stored: FixedWidthInteger, Value: FixedWidthInteger>(_ count: Int, of stored: Stored.Type,
                                                                                  as value: Value.Type) throws -> [Value] {
        try values(count, width: MemoryLayout<Stored>.size) { buffer, offset in
            Value(truncatingIfNeeded: Stored(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: Stored.self)))
        }
    }

    /// `count` little-endian integers of `Stored`'s width.
    mutating func integers<Stored: FixedWidthInteger>(_ count: Int, of stored: Stored.Type) throws -> [Stored] {
        try integers(count, of: stored, as: stored)
    }

    /// `count` reals (IEEE 754 bits, 8 little-endian bytes each) in one pass, with no array
    /// between (a national feed's stop index holds a million bytes of them, read per process).
    mutating func doubles(_ count: Int) throws -> [Double] {
        try values(count, width: 8) { buffer, offset in
            Double(bitPattern: UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        }
    }

    /// `count` values of `width` bytes each, made by `value` from the buffer and each one's
    /// offset in it, in one pass into the array returned.
    @inline(__always) mutating func values<Value>(_ count: Int, width: Int,
                                                  _ value: (UnsafeRawBufferPointer, Int) -> Value) throws -> [Value] {
        guard hasBytes(count * width) else { throw Truncated() }
        let start = offset
        offset += count * width
        return [Value](unsafeUninitializedCapacity: count) { values, initialized in
            for index in 0..<count { values[index] = value(buffer, start + index * width) }
            initialized = count
        }
    }

    /// `count` single bytes.
    mutating func bytes(_ count: Int) throws -> [UInt8] {
        guard hasBytes(count) else { throw Truncated() }
        defer { offset += count }
        return Array(buffer[offset..<(offset + count)])
    }
}

extension PackedWriter {
    /// Appends `value` as a variable-length integer: zigzag (0, −1, 1, −2, … as 0, 1, 2, 3, …),
    /// then 7 bits a byte, low bits first, the high bit set on every byte but the last. Small
    /// values of either sign take one byte.
    mutating func appendVariable(_ value: Int) {
        var bits = UInt64(bitPattern: Int64((value << 1) ^ (value >> 63)))
        while bits >= 0x80 {
            append(UInt8(truncatingIfNeeded: bits) | 0x80)
            bits >>= 7
        }
        append(UInt8(bits))
    }
}

extension PackedReader {
    /// Reads `count` integers written by `PackedWriter.appendVariable` (at most 10 bytes each),
    /// handing each to `take` with its index, in one pass over the bytes that throws only when
    /// they end early: a pattern's times are most of what reading it costs.
    @inline(__always) mutating func forEachVariable(_ count: Int, _ take: (Int, Int) -> Void) throws {
        guard count > 0 else { return }
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw Truncated() }
        let end = buffer.count
        var cursor = offset
        for index in 0..<count {
            guard cursor < end else { throw Truncated() }
            var byte = base[cursor]
            cursor += 1
            var bits = UInt64(byte & 0x7F)
            var shift: UInt64 = 7
            while byte >= 0x80 {
                guard cursor < end, shift < 64 else { throw Truncated() }
                byte = base[cursor]
                cursor += 1
                bits |= UInt64(byte & 0x7F) << shift
                shift += 7
            }
            take(index, Int(Int64(bitPattern: bits >> 1) ^ -Int64(bitPattern: bits & 1)))
        }
        offset = cursor
    }
}
