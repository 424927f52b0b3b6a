/// The parameters of a URL's query string (`lat=54.68&lon=25.28&feed=a&feed=b`), decoded as HTML
/// forms and `URLSearchParams` encode them: `+` is a space, `%XX` a byte of UTF-8.
///
/// Read byte by byte, and a part without escapes becomes its string directly: splitting the text
/// as a collection and decoding each part through an array was a sixth of the instructions from
/// the query string to the answer (callgrind: 31,800 of 188,000, for a question with no stops near).
struct QueryString {
    /// The parameters in order; a name may repeat (`feed`).
    private(set) var pairs: [(name: String, value: String)] = []

    /// Reads `query` (what follows `?`, without it); nil when an escape is malformed or the text
    /// is not UTF-8.
    init?(_ query: String?) {
        guard let query, !query.isEmpty else { return }
        let bytes = Array(query.utf8)
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
            if end > start {
                let part = bytes[start..<end]
                let equals = part.firstIndex(of: UInt8(ascii: "=")) ?? end
                guard let name = QueryString.decode(part[..<equals]),
                      let value = QueryString.decode(equals < end ? part[(equals + 1)...] : []) else { return nil }
                pairs.append((name, value))
            }
            start = end + 1
        }
    }

    /// The first value of `name`.
    subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// `text` with `+` as a space and `%XX` escapes decoded; nil when malformed or not UTF-8.
    static func decode(_ text: Substring, plusIsSpace: Bool = true) -> String? {
        decode(Array(text.utf8)[...], plusIsSpace: plusIsSpace)
    }

    /// A path segment decoded: `%XX` escapes only (`+` stays a plus sign in a path).
    static func decodePathSegment(_ text: Substring) -> String? {
        decode(text, plusIsSpace: false)
    }

    /// The UTF-8 `bytes` with `+` as a space (when `plusIsSpace`) and `%XX` escapes decoded.
    private static func decode(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool = true) -> String? {
        let escaped = bytes.contains { $0 == UInt8(ascii: "%") || ($0 == UInt8(ascii: "+") && plusIsSpace) }
        guard escaped else { return String(validating: bytes, as: UTF8.self) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+") where plusIsSpace: decoded.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                decoded.append(high << 4 | low)
            default: decoded.append(byte)
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
