// Numbers as people read them, in every command's output.

/// `value` with at most `decimals` decimals and no trailing zeros (`12.5`, `3`, `-0.25`).
public func formatDecimal(_ value: Double, decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value * scale).rounded()
    if scaled == 0 { return "0" }
    let negative = scaled < 0
    let digits = String(Int64(abs(scaled)))
    var whole: Substring
    var fraction: Substring
    if digits.count > decimals {
        whole = digits.dropLast(decimals)
        fraction = digits.suffix(decimals)
    } else {
        whole = "0"
        fraction = Substring(String(repeating: "0", count: decimals - digits.count) + digits)
    }
    while fraction.last == "0" { fraction = fraction.dropLast() }
    return (negative ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
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
