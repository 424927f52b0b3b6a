/// The character encodings a feed's files may be in, as `--encoding` names them.
public enum TextEncoding: String, CaseIterable, Sendable {
    case utf8 = "utf-8"
    case utf16 = "utf-16"
    case windows1252 = "windows-1252"
    case iso88591 = "iso-8859-1"
    case iso885915 = "iso-8859-15"

    /// The encoding `name` means (case and `_`/`-` spelling forgiven: `UTF8`, `latin1`, `cp1252`).
    public init?(name: String) {
        let key = name.lowercased().filter { $0 != "-" && $0 != "_" }
        switch key {
        case "utf8": self = .utf8
        case "utf16": self = .utf16
        case "windows1252", "cp1252": self = .windows1252
        case "iso88591", "latin1": self = .iso88591
        case "iso885915", "latin9": self = .iso885915
        default: return nil
        }
    }

    /// The names `--encoding` takes, for messages.
    public static let names = allCases.map(\.rawValue).joined(separator: ", ")
}
