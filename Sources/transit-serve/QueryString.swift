/// The parameters of a URL's query string (`lat=54.68&lon=25.28&feed=a&feed=b`), decoded as HTML
/// forms and `URLSearchParams` encode them: `+` is a space, `%XX` a byte of UTF-8.
struct QueryString {
    /// The parameters in order; a name may repeat (`feed`).
    private(set) var pairs: [(name: String, value: String)] = []

    /// Reads `query` (what follows `?`, without it); nil when an escape is malformed or the text
    /// is not UTF-8.
    init?(_ query: String?) {
        guard let query, !query.isEmpty else { return }
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring
            let value: Substring
            if let equals = part.firstIndex(of: "=") {
                name = part[..<equals]
                value = part[part.index(after: equals)...]
            } else {
                name = part
                value = ""
            }
            guard let decodedName = QueryString.decode(name), let decodedValue = QueryString.decode(value) else { return nil }
            pairs.append((decodedName, decodedValue))
        }
    }

    /// The first value of `name`.
    subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every value of `name`, in order.
    func all(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    /// The distinct names given, in order of first appearance.
    var names: [String] {
        var seen = Set<String>()
        return pairs.map(\.name).filter { seen.insert($0).inserted }
    }

    /// `text` with `+` as a space and `%XX` escapes decoded; nil when malformed or not UTF-8.
    static func decode(_ text: Substring, plusIsSpace: Bool = true) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+") where plusIsSpace: bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A path segment decoded: `%XX` escapes only (`+` stays a plus sign in a path).
    static func decodePathSegment(_ text: Substring) -> String? {
        decode(text, plusIsSpace: false)
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
