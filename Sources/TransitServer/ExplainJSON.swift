import FetchRequest
import GTFS
import TransitCommands

/// The body of an answer asked with `explain=1`: `{"result": <the answer>, "explain": [...],
/// "notes": [...]}`, where each statement is `{"sql", "arguments", "plan": [{"id", "parent",
/// "detail"}], "rows", "ms"}` (what `--explain` prints, as data) and notes are what the command
/// line says on stderr (stale realtime data, a trip not running that day).
enum ExplainJSON {
    static func wrap(_ answer: HostedAnswer) -> [UInt8] {
        var text = "{\"result\": "
        var body = answer.body
        while let last = body.last, last == 0x0A { body.removeLast() }
        var bytes = Array(text.utf8) + body
        text = ",\n\"explain\": [" + answer.statements.map(statement).joined(separator: ",\n") + "],\n\"notes\": ["
            + answer.notes.split(separator: "\n").map { JSONText.quote(String($0)) }.joined(separator: ", ") + "]}\n"
        bytes += Array(text.utf8)
        return bytes
    }

    private static func statement(_ executed: ExecutedRequest) -> String {
        // The statement as the store ran it: a server's translation, else the request's own.
        "{\"sql\": " + JSONText.quote(executed.plan.statement ?? executed.request.sql)
            + ", \"arguments\": [" + executed.request.arguments.map(value).joined(separator: ", ") + "]"
            + ", \"plan\": [" + executed.plan.steps.map { "{\"id\": \($0.id), \"parent\": \($0.parent), \"detail\": " + JSONText.quote($0.detail) + "}" }.joined(separator: ", ") + "]"
            + ", \"rows\": \(executed.rowCount), \"ms\": " + formatDecimal(executed.seconds * 1000, decimals: 3) + "}"
    }

    private static func value(_ value: SQLValue) -> String {
        switch value {
        case .null: return "null"
        case .integer(let number): return String(number)
        case .real(let number): return number.isFinite ? String(number) : "null"
        case .text(let text): return JSONText.quote(text)
        }
    }
}
