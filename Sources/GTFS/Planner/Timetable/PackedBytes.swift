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
        let width = MemoryLayout<Stored>.size
        guard hasBytes(count * width) else { throw Truncated() }
        let start = offset
        offset += count * width
        return [Value](unsafeUninitializedCapacity: count) { values, initialized in
            for index in 0..<count {
                values[index] = Value(truncatingIfNeeded: Stored(littleEndian: buffer.loadUnaligned(fromByteOffset: start + index * width, as: Stored.self)))
            }
            initialized = count
        }
    }

    /// `count` little-endian integers of `Stored`'s width.
    mutating func integers<Stored: FixedWidthInteger>(_ count: Int, of stored: Stored.Type) throws -> [Stored] {
        try integers(count, of: stored, as: stored)
    }

    /// `count` reals (IEEE 754 bits, 8 little-endian bytes each) in one pass.
    mutating func doubles(_ count: Int) throws -> [Double] {
        try integers(count, of: UInt64.self).map(Double.init(bitPattern:))
    }

    /// `count` single bytes.
    mutating func bytes(_ count: Int) throws -> [UInt8] {
        guard hasBytes(count) else { throw Truncated() }
        defer { offset += count }
        return Array(buffer[offset..<(offset + count)])
    }
}
