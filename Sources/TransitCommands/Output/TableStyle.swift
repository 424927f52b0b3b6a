import ArgumentParser
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// `--color`: when tables are coloured.
enum ColorChoice: String, CaseIterable, ExpressibleByArgument {
    case auto, always, never
}

/// How the tables of this run are drawn: with colour or without, and the width they must fit
/// (the terminal's, when standard output is one). JSON, CSV and GeoJSON never use it.
struct TableStyle: Sendable {
    /// Escape codes for colour and weight.
    var color: Bool
    /// The columns a table may take; nil: any width (not a terminal).
    var width: Int?

    static let plain = TableStyle(color: false, width: nil)

    /// The style of this run, set once from the command line by `QueryOptions.open()` before any
    /// table is written (a single-threaded command-line run).
    nonisolated(unsafe) static var current = TableStyle.plain

    /// `--color never` and `always` decide; under `auto`, `NO_COLOR` (set and not empty) turns
    /// colour off, else `CLICOLOR_FORCE` (set and not 0) turns it on, else colour is used only
    /// when standard output is a terminal. The width is the terminal's (`COLUMNS` when set).
    static func resolve(_ choice: ColorChoice, environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } }) -> TableStyle {
        let terminal = isatty(1) != 0
        let color: Bool
        switch choice {
        case .always: color = true
        case .never: color = false
        case .auto:
            if let noColor = environment("NO_COLOR"), !noColor.isEmpty {
                color = false
            } else if let force = environment("CLICOLOR_FORCE"), !force.isEmpty, force != "0" {
                color = true
            } else {
                color = terminal
            }
        }
        var width: Int?
        if terminal {
            var size = winsize()
            if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { width = Int(size.ws_col) }
            if let columns = environment("COLUMNS").flatMap({ Int($0) }), columns > 0 { width = columns }
        }
        return TableStyle(color: color, width: width)
    }
}

/// How one table cell is drawn when colour is on.
enum CellStyle: Equatable, Sendable {
    case none
    /// A route in its colours (24-bit), padded by a space each side.
    case badge(RouteColors)
    /// Less important: a time interpolated at import.
    case dim
    /// A realtime delay: on time, a little late, late, early, or a time realtime data made
    /// (a NEW trip, a skipped stop).
    case onTime, slightlyLate, late, early, realtimeOnly

    /// The escape code that starts the style ("" for none).
    var escape: String {
        switch self {
        case .none: return ""
        case .badge(let colors):
            let (background, foreground) = (colors.background, colors.readableText)
            return "\u{1B}[48;2;\(background.red);\(background.green);\(background.blue)m\u{1B}[38;2;\(foreground.red);\(foreground.green);\(foreground.blue)m"
        case .dim: return "\u{1B}[2m"
        case .onTime: return "\u{1B}[32m"
        case .slightlyLate: return "\u{1B}[33m"
        case .late: return "\u{1B}[31m"
        case .early: return "\u{1B}[36m"
        case .realtimeOnly: return "\u{1B}[35m"
        }
    }

    /// The style of a realtime delay in seconds (nil: a time only realtime data gives).
    static func delay(_ seconds: Int?) -> CellStyle {
        guard let seconds else { return .realtimeOnly }
        let minutes = Int((Double(seconds) / 60).rounded())
        if minutes == 0 { return .onTime }
        if minutes < 0 { return .early }
        return minutes < 5 ? .slightlyLate : .late
    }

    static let reset = "\u{1B}[0m"
    static let bold = "\u{1B}[1m"
}

/// A route's colours as the feed gives them (`route_color`, `route_text_color`), with GTFS's
/// defaults (white, black) for what it leaves out.
struct RouteColors: Equatable, Sendable {
    struct RGB: Equatable, Sendable {
        let red: Int, green: Int, blue: Int

        /// `"FF8800"` (six hex digits, with or without `#`); nil for anything else.
        init?(hex text: String?) {
            guard var text = text?.trimmingCharacters(in: " ") else { return nil }
            if text.hasPrefix("#") { text.removeFirst() }
            guard text.utf8.count == 6, let value = Int(text, radix: 16) else { return nil }
            (red, green, blue) = (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
        }

        init(red: Int, green: Int, blue: Int) { (self.red, self.green, self.blue) = (red, green, blue) }

        /// WCAG relative luminance, 0 (black) to 1 (white).
        var luminance: Double {
            func channel(_ value: Int) -> Double {
                let c = Double(value) / 255
                return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)
        }
    }

    let background: RGB
    /// The feed's text colour, if it gives one.
    let text: RGB?

    init(color: String?, textColor: String?) {
        background = RGB(hex: color) ?? RGB(red: 255, green: 255, blue: 255)
        text = RGB(hex: textColor)
    }

    /// The feed's text colour, else black or white, whichever contrasts more with the background.
    var readableText: RGB {
        if let text { return text }
        // Contrast with black is (L + 0.05) / 0.05, with white 1.05 / (L + 0.05): black wins above L ≈ 0.179.
        return background.luminance > 0.179 ? RGB(red: 0, green: 0, blue: 0) : RGB(red: 255, green: 255, blue: 255)
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return String(text)
    }
}
