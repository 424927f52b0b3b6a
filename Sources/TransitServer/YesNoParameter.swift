/// A yes/no parameter of the API (`platforms`, `realtime`, `explain`, …): one reading for every
/// endpoint's flags and for `explain`, so they accept the same words and say the same mistake.
enum YesNoParameter {
    /// `text` as yes (1, true, yes, or empty: `?platforms` alone) or no (0, false, no), in any
    /// case; anything else is a mistake naming parameter `name`.
    static func value(of text: String, named name: String) throws(APIEndpoint.Mistake) -> Bool {
        switch text.lowercased() {
        case "1", "true", "yes", "": return true
        case "0", "false", "no": return false
        default: throw APIEndpoint.Mistake(message: "\(name) takes 1 or 0; got '\(text)'", parameter: name)
        }
    }

    /// A yes/no parameter that may be absent (`explain`): absent is no.
    static func value(ofOptional text: String?, named name: String) throws(APIEndpoint.Mistake) -> Bool {
        guard let text else { return false }
        return try value(of: text, named: name)
    }
}
