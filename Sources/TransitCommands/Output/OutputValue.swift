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
