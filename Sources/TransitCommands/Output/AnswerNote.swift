import GTFS

/// What a command says on stderr beside its answer: why it is empty and what to try. A table
/// gets a sentence; JSON, CSV and GeoJSON get one JSON object on a line of its own, so standard
/// output keeps its shape (`[]`) and a program can still read why:
///
///     {"note": "outside_service", "first_date": "2007-01-01", "last_date": "2010-12-31", "next": "2010-12-25T06:10:00-08:00", "at": "2010-12-25 06:10"}
///
/// `transit serve` sends the JSON object as the answer's `Transit-Note` header. The kinds are
/// listed in docs/commands.md ("Empty answers").
struct AnswerNote {
    /// `outside_service`, `none_in_window`, `not_served`, `no_stops`, `no_journey`, …
    let kind: String
    /// The note's fields after `note`, in order.
    let fields: [(name: String, value: OutputValue)]
    /// The sentence a table shows.
    var sentence: String

    /// The line written for `format`.
    func line(for format: OutputFormat) -> String {
        guard format != .table else { return sentence + "\n" }
        return "{" + ([("note", OutputValue.text(kind))] + fields).map { JSONText.quote($0.0) + ": " + $0.1.json }.joined(separator: ", ") + "}\n"
    }

    /// Writes the note on stderr.
    func write(for format: OutputFormat) {
        writeToStandardError(line(for: format))
    }
}

extension AnswerNote {
    /// How words were read as a stop's name where an id is asked (`about`: "FROM", "--stop"):
    ///
    ///     {"note": "stop_by_name", "about": "FROM", "text": "westlake", "stop_ids": ["1121"]}
    init(readAsName choice: StopChoice, about name: String) {
        let ids = choice.stops.map(\.stopID)
        let what = ids.count == 1 ? "the stop \(choice.stops[0].name) (stop_id \(ids[0]))"
            : "the \(ids.count) stops named \(choice.stops[0].name) (stop_ids \(ids.joined(separator: ", ")))"
        self.init(kind: "stop_by_name", fields: [("about", .text(name)), ("text", .text(choice.text)), ("stop_ids", .list(ids))],
                  sentence: "\(name): '\(choice.text)' is no stop_id; read as \(what)")
    }

    /// Why `departures` found nothing at `place` (`stop HBF`, `500 m of LAT,LON`) on `date`.
    init(_ reason: EmptyDepartures, place: String, date: ServiceDate, zones: (String) -> AgencyTimeZone) {
        /// A departure's moment in its feed's zone, as the note's fields, the `--at` to try and
        /// what leaves then.
        func moment(_ departure: Departure?) -> (fields: [(name: String, value: OutputValue)], at: String, ride: String)? {
            guard let departure else { return nil }
            let local = zones(departure.feed).localTime(of: departure.instant)
            let at = "\(local.date) \(local.hourMinute)"
            return ([("next", .text(local.iso8601)), ("at", .text(at))], at, "route \(departure.route) → \(departure.headsign)")
        }
        switch reason {
        case .noStops:
            self.init(kind: "no_stops", fields: [], sentence: "No stop within \(place): try a larger --radius")
        case .notServed:
            self.init(kind: "not_served", fields: [],
                      sentence: "No trip of the feeds asked lets riders board at \(place) on any date: try a stop nearby (transit nearby)")
        case .outsideService(let dates, let next):
            let next = moment(next)
            self.init(kind: "outside_service",
                      fields: [("first_date", .text(dates.lowerBound.description)), ("last_date", .text(dates.upperBound.description))]
                        + (next?.fields ?? [("next", .null)]),
                      sentence: "The timetable runs from \(dates.lowerBound) to \(dates.upperBound); \(date) is outside it"
                        + (next.map { ": try --at \"\($0.at)\" (\($0.ride) leaves then)" } ?? ""))
        case .noneInWindow(let next):
            let next = moment(next)
            self.init(kind: "none_in_window", fields: next?.fields ?? [("next", .null)],
                      sentence: next.map { "The next departure is at \($0.at), \($0.ride): try --at \"\($0.at)\" or a longer --within" }
                        ?? "Nothing leaves \(place) in the week after either")
        }
    }
}
