import GTFS

/// One field of a result, typed so each format writes it properly (numbers as JSON numbers).
enum OutputValue {
    case text(String)
    case integer(Int)
    /// A number written with at most `decimals` decimals.
    case number(Double, decimals: Int)
    case null
    /// Several texts: a JSON array, in CSV and tables joined with "; ".
    case list([String])
    /// true or false (CSV: 1 or 0).
    case boolean(Bool)

    /// The value as JSON.
    var json: String {
        switch self {
        case .list(let texts): return "[" + texts.map(JSONText.quote).joined(separator: ", ") + "]"
        case .boolean(let value): return value ? "true" : "false"
        case .text(let text): return JSONText.quote(text)
        case .integer(let value): return String(value)
        case let .number(value, decimals): return formatDecimal(value, decimals: decimals)
        case .null: return "null"
        }
    }

    /// The value as a CSV field (RFC 4180 quoting).
    var csv: String {
        switch self {
        case .list(let texts): return OutputValue.text(texts.joined(separator: "; ")).csv
        case .boolean(let value): return value ? "1" : "0"
        case .text(let text):
            guard text.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return text }
            return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
        case .integer(let value): return String(value)
        case let .number(value, decimals): return formatDecimal(value, decimals: decimals)
        case .null: return ""
        }
    }
}

/// JSON string quoting.
enum JSONText {
    static func quote(_ text: String) -> String {
        // Most texts need no escape (no quote, backslash, control character or U+2028/2029,
        // whose UTF-8 starts with 0xE2): checked on the bytes, copied whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0xE2 }) { return "\"" + text + "\"" }
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
