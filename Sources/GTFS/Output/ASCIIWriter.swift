/// Writes a short ASCII text (a date, a clock time) straight into a new string's storage.
///
/// Built from pieces (`"0" + String(7) + ":" …`), each ISO 8601 instant allocated a dozen small
/// strings: it was a tenth of the instructions of a `reach` answer listing 1,208 stops as JSON
/// (callgrind, 2026-11-29), and every departure and journey leg prints one or two.
struct ASCIIWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    private init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    /// The text `body` writes, of at most `capacity` bytes.
    static func text(capacity: Int, _ body: (inout ASCIIWriter) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { buffer in
            var writer = ASCIIWriter(buffer)
            body(&writer)
            return writer.count
        }
    }

    /// Appends one ASCII character (`":"`); nothing once the capacity is full (the texts written
    /// are far shorter: the check keeps a mistake from writing past the string's storage).
    mutating func put(_ character: Unicode.Scalar) {
        put(byte: UInt8(truncatingIfNeeded: character.value))
    }

    private mutating func put(byte: UInt8) {
        guard count < buffer.count else { return }
        buffer[count] = byte
        count += 1
    }

    /// Appends `value` in decimal, with leading zeros to at least `digits` digits; a negative
    /// value gets its minus sign first (`-07`).
    mutating func put(_ value: Int, digits: Int) {
        if value < 0 { put("-") }
        var magnitude = value.magnitude
        var width = 1
        var scale: UInt = 1
        while magnitude / scale >= 10 {
            scale *= 10
            width += 1
        }
        for _ in width..<max(width, digits) { put("0") }
        while scale > 0 {
            put(byte: UInt8(truncatingIfNeeded: 0x30 + magnitude / scale))
            magnitude %= scale
            scale /= 10
        }
    }
}
