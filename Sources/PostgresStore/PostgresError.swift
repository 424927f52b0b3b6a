/// What a PostgreSQL server or libpq refused, on one line that names the server.
public struct PostgresError: Error, CustomStringConvertible {
    /// The server, as its URL without a password.
    public let location: String
    /// The server's message (its first line).
    public let message: String
    /// The SQLSTATE code, when the server sent one (`25006`: a read-only transaction).
    public let sqlState: String?

    public init(location: String, message: String, sqlState: String? = nil) {
        self.location = location
        self.message = message
        self.sqlState = sqlState
    }

    public var description: String { "\(location): \(message)" }

    /// The first non-empty line of libpq's message, without "ERROR:  ".
    static func firstLine(_ message: String) -> String {
        let line = message.split(separator: "\n").first.map(String.init) ?? message
        for prefix in ["ERROR:  ", "FATAL:  "] where line.hasPrefix(prefix) { return String(line.dropFirst(prefix.count)) }
        return line
    }
}

/// A change (an import, `feeds remove|upgrade`, a realtime read) was pointed at a hot standby.
public struct ReadOnlyStandby: Error, CustomStringConvertible {
    /// The standby, as its URL without a password.
    public let location: String

    public init(location: String) { self.location = location }

    public var description: String {
        "\(location) is a read-only hot standby; point `transit import`, `transit feeds remove|upgrade` and `transit realtime` at the primary server"
    }
}
