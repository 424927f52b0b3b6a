// Numbers as people read them, in every command's output.

/// `value` with at most `decimals` decimals and no trailing zeros (`12.5`, `3`, `-0.25`).
///
/// Written with integer arithmetic into a stack buffer: batch runs format millions of
/// coordinates, and the `Substring` version spent most of its time walking characters.
public func formatDecimal(_ value: Double, decimals: Int) -> String {
    var scale: UInt64 = 1
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value * Double(scale)).rounded()
    if scaled == 0 { return "0" }
    guard scaled.isFinite, abs(scaled) < 9e18 else { return "\(value)" }
    let magnitude = UInt64(abs(scaled))
    var whole = magnitude / scale
    var fraction = magnitude % scale
    var places = decimals
    while places > 0, fraction % 10 == 0 {
        fraction /= 10
        places -= 1
    }
    return String(unsafeUninitializedCapacity: 48) { buffer in
        // Digits are written backwards from the end, then moved to the front.
        var end = 48
        func put(_ byte: UInt8) {
            end -= 1
            buffer[end] = byte
        }
        for _ in 0..<places {
            put(UInt8(0x30 + fraction % 10))
            fraction /= 10
        }
        if places > 0 { put(0x2E) }
        repeat {
            put(UInt8(0x30 + whole % 10))
            whole /= 10
        } while whole > 0
        if scaled < 0 { put(0x2D) }
        let count = 48 - end
        for index in 0..<count { buffer[index] = buffer[end + index] }
        return count
    }
}

/// `1234567` as `1,234,567`.
public func formatCount(_ value: Int) -> String {
    let digits = String(abs(value))
    var result = ""
    for (index, character) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
        result.append(character)
    }
    return value < 0 ? "-" + result : result
}

/// `12.3 s` or `850 ms`.
public func formatSeconds(_ seconds: Double) -> String {
    if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
    return "\(Double(Int(seconds * 10)) / 10) s"
}

/// `85 m`, `1.2 km`.
public func formatDistance(_ metres: Double) -> String {
    if metres < 1000 { return String(Int(metres.rounded())) + " m" }
    return formatDecimal(metres / 1000, decimals: 1) + " km"
}
