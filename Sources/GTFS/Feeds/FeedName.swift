/// The name a feed has in a database of several feeds: lowercase ASCII letters, digits, `-` and
/// `_`, so it can be typed, used in `FEED:ID`, and never needs quoting.
public enum FeedName {
    /// The characters a name may have.
    public static let alphabet = "a-z 0-9 - _"

    /// True when `name` is not empty and uses only `a-z 0-9 - _`.
    public static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isAllowed)
    }

    /// The name `transit import` gives a feed from where it came from: the file or folder name
    /// without its extension, lowercased, every other character turned into `-`
    /// (`Caltrain 2017.zip` → `caltrain-2017`; `https://host/gtfs.zip?key=1` → `gtfs`).
    public static func derived(fromSource source: String) -> String {
        var path = Substring(source)
        // `.`, `..` or `data/..` name a folder by where they point.
        let lastComponent = source.split(separator: "/").last
        if lastComponent == "." || lastComponent == "..", let resolved = FileSystem.resolvedPath(source) { path = Substring(resolved) }
        if let query = path.firstIndex(where: { $0 == "?" || $0 == "#" }), source.contains("://") { path = path[..<query] }
        while path.count > 1, path.last == "/" { path = path.dropLast() }
        var last = path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? path
        if let dot = last.lastIndex(of: "."), dot != last.startIndex { last = last[..<dot] }
        var name = ""
        for character in last.lowercased() {
            if let ascii = character.asciiValue, isAllowed(ascii) {
                name.append(character)
            } else {
                name.append("-")
            }
        }
        return name.isEmpty ? "feed" : name
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
    }
}
