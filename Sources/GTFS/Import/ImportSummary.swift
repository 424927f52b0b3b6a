
/// The summary `transit import` prints: rows per table, what was skipped and why, and the time.
public struct ImportSummary {
    public let report: ImportReport
    public let databasePath: String
    public var showTimings = false

    public init(report: ImportReport, databasePath: String, showTimings: Bool = false) {
        self.report = report
        self.databasePath = databasePath
        self.showTimings = showTimings
    }

    /// The summary as lines of text.
    public var text: String {
        var notes: [String] = []
        if report.replacedFeed { notes.append("replacing the previous \(report.feedName)") }
        if report.otherFeeds > 0 { notes.append("\(report.otherFeeds) other feed\(report.otherFeeds == 1 ? "" : "s") untouched") }
        var lines = ["Imported feed \(report.feedName) into \(databasePath) in \(formatSeconds(report.seconds))"
                     + (notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")") + ":"]
        let width = report.rowCounts.map(\.table.count).max() ?? 0
        for (table, rows) in report.rowCounts {
            let count = formatCount(rows)
            lines.append("  " + table + String(repeating: " ", count: width - table.count + 2)
                         + String(repeating: " ", count: max(0, 11 - count.count)) + count)
        }
        if report.interpolatedStopTimes > 0 {
            lines.append("  \(formatCount(report.interpolatedStopTimes)) stop times had no time and got one interpolated between their neighbours.")
        }
        for note in report.notes { lines.append("Note: " + note) }
        if report.skipped.isEmpty {
            lines.append("Nothing was skipped.")
        } else {
            lines.append("Skipped \(formatCount(report.skippedTotal)):")
            for skipped in report.skipped {
                lines.append("  \(formatCount(skipped.count)) × \(skipped.reason), e.g. " + skipped.examples.joined(separator: "; "))
            }
        }
        if showTimings {
            lines.append("Steps:")
            for (name, seconds) in report.phases {
                lines.append("  " + name + String(repeating: " ", count: max(1, 40 - name.count)) + formatSeconds(seconds))
            }
        }
        return lines.joined(separator: "\n")
    }
}

