import ArgumentParser

/// A point typed by the user: `LAT LON` as two arguments (negative values as typed, no `--`
/// needed) or one `LAT,LON` argument.
struct Coordinate {
    let latitude: Double
    let longitude: Double

    init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Parses the positional words of a command (`--` among them ends the options); `what` names
    /// them in messages.
    init(words typed: [String], what: String = "LAT LON") throws {
        let words = try PositionalWords(typed).words
        var parts = words
        if parts.count == 1 {
            parts = parts[0].split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        }
        guard parts.count == 2 else {
            throw ValidationError("expected a coordinate as \(what) or LAT,LON (for example 54.687 25.28), got \(words.isEmpty ? "nothing" : "'" + words.joined(separator: " ") + "'")")
        }
        self.latitude = try Coordinate.degrees(parts[0], name: "latitude", range: -90...90)
        self.longitude = try Coordinate.degrees(parts[1], name: "longitude", range: -180...180)
    }

    init(_ text: String, option: String) throws {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        guard parts.count == 2 else { throw ValidationError("\(option) takes LAT,LON (for example 54.687,25.28), got '\(text)'") }
        latitude = try Coordinate.degrees(parts[0], name: "\(option) latitude", range: -90...90)
        longitude = try Coordinate.degrees(parts[1], name: "\(option) longitude", range: -180...180)
    }

    /// The bytes besides digits a number in decimal degrees may have: `.`, signs and exponents.
    private static let numberSigns: [UInt8] = [UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "e"), UInt8(ascii: "E")]

    static func degrees(_ text: String, name: String, range: ClosedRange<Double>) throws -> Double {
        // Byte by byte: the same test over Characters (grapheme breaking, Unicode properties) was
        // 17,000 instructions for the two numbers of a point.
        guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || Coordinate.numberSigns.contains($0) }),
              let value = Double(text), value.isFinite else {
            throw ValidationError("\(name) '\(text)' is not a number in decimal degrees")
        }
        guard range.contains(value) else {
            throw ValidationError("\(name) \(text) is outside [\(Int(range.lowerBound)), \(Int(range.upperBound))]")
        }
        return value
    }
}

/// The words an argument declared `parsing: .allUnrecognized` was given (so that `-33.9` passes as
/// a word, not an option): the parser hands it every word it does not know, the end-of-options
/// marker `--` included. Words before the first `--` that look like long options are options
/// nobody declared; after it, every word is a word.
struct PositionalWords {
    let words: [String]

    init(_ typed: [String]) throws {
        let marker = typed.firstIndex(of: "--") ?? typed.endIndex
        if let option = typed[..<marker].first(where: { $0.hasPrefix("--") }) {
            throw ValidationError("Unknown option '\(option)'")
        }
        words = Array(typed[..<marker]) + typed[marker...].dropFirst()
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}

/// Checks a search radius in metres: above 0, at most 100 km.
func validateRadius(_ radius: Double, option: String = "--radius") throws {
    guard radius.isFinite, radius > 0, radius <= 100_000 else {
        throw ValidationError("\(option) must be above 0 and at most 100000 metres (100 km)")
    }
}

/// Checks a `--limit`: 0 (no limit) or more.
func validateLimit(_ limit: Int) throws {
    guard limit >= 0 else { throw ValidationError("--limit must be 0 (no limit) or more") }
}
