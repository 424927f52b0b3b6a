/// A problem in a feed file, located by file, line and (when known) field.
///
/// Printed as one line a user can act on:
/// `stop_times.txt line 1234, field departure_time: '25:61:00' is not a GTFS time (H:MM:SS)`.
public struct FeedError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file inside the feed (`stops.txt`), or the feed itself for problems with the whole feed.
    public let file: String
    /// The 1-based line where the record starts (the header is line 1), when the problem has one.
    public let line: Int?
    /// The column name, when the problem is in one field.
    public let field: String?
    /// What is wrong, and where it helps, what to do.
    public let message: String

    public init(file: String, line: Int? = nil, field: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }

    public var description: String {
        var location = file
        if let line { location += " line \(line)" }
        if let field { location += ", field \(field)" }
        return location + ": " + message
    }
}
