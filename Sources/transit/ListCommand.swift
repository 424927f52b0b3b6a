import ArgumentParser
import FetchRequest
import GTFS

/// `transit list TABLE`: a whole table, or a filtered part, streamed in the feed's own terms.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        _superCommandName: "transit",
        abstract: "Stream a table (stops, routes, trips, stop-times) as CSV or JSON.",
        discussion: """
            Rows are stepped one at a time from a single statement and written as they come, so memory stays flat and output starts at once even for millions of stop times. Ids are the feed's own, with the feed's name in the first column; times are HH:MM:SS. Feeds come one after another, by name; --feed NAME keeps those feeds. --where FIELD=VALUE keeps rows whose FIELD equals VALUE (repeat it to combine).
            Examples: transit list stop-times --where trip_id=T1
                      transit list stops --where location_type=1 --format json
            """,
        version: TransitCommand.version
    )

    @Argument(help: ArgumentHelp("stops, routes, trips or stop-times.", valueName: "table"))
    var table: String

    @Option(name: .long, parsing: .unconditionalSingleValue, help: ArgumentHelp("Keep rows where FIELD equals VALUE.", valueName: "field=value"))
    var `where`: [String] = []

    @Option(name: .long, help: "csv (default) or json.")
    var format: ListFormat = .csv

    @Flag(name: .long, help: "Print the SQL, its values and SQLite's plan on stderr.")
    var explain = false

    @OptionGroup var feeds: FeedOptions

    @OptionGroup var database: DatabaseOptions

    enum ListFormat: String, ExpressibleByArgument, CaseIterable { case csv, json }

    func validate() throws {
        guard let listing = TableListing.all[table] else {
            throw ValidationError("unknown table '\(table)'; list one of stops, routes, trips, stop-times")
        }
        do { _ = try listing.validate(where: self.where) } catch let error as TableListing.UnknownField {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let listing = TableListing.all[table]!
        let transit = try openTransitDatabase(path: database.path, explain: explain)
        try feeds.apply(to: transit)
        let writer = StreamWriter()
        let rows = TableRowWriter(listing: listing, writer: writer, format: format)
        rows.begin()
        // Feed after feed, by name; each row is written as soon as SQLite hands it over: nothing is collected.
        for feed in transit.selectedFeeds {
            try transit.database.forEachRow(SQLGenerator.prepare(try listing.query(for: feed, where: self.where))) { row in
                guard !writer.failed else { throw StreamClosed() }
                rows.write(row)
            }
        }
        rows.end()
        writer.flush()
    }
}

/// The reader of stdout went away (`| head`): stop quietly.
struct StreamClosed: Error {}

/// Writes rows of a listing as CSV (RFC 4180) or a JSON array, straight from SQLite's bytes.
final class TableRowWriter {
    let listing: TableListing
    let writer: StreamWriter
    let format: ListCommand.ListFormat
    private var first = true
    private let names: [[UInt8]]

    init(listing: TableListing, writer: StreamWriter, format: ListCommand.ListFormat) {
        self.listing = listing
        self.writer = writer
        self.format = format
        names = listing.fields.map { Array(JSONText.quote($0.name).utf8) }
    }

    func begin() {
        if format == .csv {
            writer.write(listing.fields.map(\.name).joined(separator: ",") + "\r\n")
        } else {
            writer.write("[")
        }
    }

    func end() {
        if format == .json { writer.write(first ? "]\n" : "\n]\n") }
    }

    func write(_ row: Row) {
        if format == .json {
            writer.write(first ? "\n  {" : ",\n  {")
        }
        first = false
        for (index, field) in listing.fields.enumerated() {
            if format == .json {
                if index > 0 { writer.write(byte: 0x2C); writer.write(byte: 0x20) }
                names[index].withUnsafeBufferPointer { writer.write($0) }
                writer.write(byte: 0x3A); writer.write(byte: 0x20)
                writeJSONValue(row, index, field.kind)
            } else {
                if index > 0 { writer.write(byte: 0x2C) }
                writeCSVValue(row, index, field.kind)
            }
        }
        if format == .json { writer.write(byte: 0x7D) } else { writer.write(byte: 0x0D); writer.write(byte: 0x0A) }
    }

    private func writeTime(_ seconds: Int) {
        let hours = seconds / 3600, minutes = (seconds % 3600) / 60, secs = seconds % 60
        if hours < 10 { writer.write(byte: 0x30) }
        writer.write(integer: hours)
        writer.write(byte: 0x3A)
        writer.write(byte: UInt8(0x30 + minutes / 10)); writer.write(byte: UInt8(0x30 + minutes % 10))
        writer.write(byte: 0x3A)
        writer.write(byte: UInt8(0x30 + secs / 10)); writer.write(byte: UInt8(0x30 + secs % 10))
    }

    private func writeCSVValue(_ row: Row, _ index: Int, _ kind: TableListing.Kind) {
        if row.isNull(index) { return }
        switch kind {
        case .time: writeTime(row.int(index))
        case .integer where row.isInteger(index): writer.write(integer: row.int(index))
        default:
            row.withText(index) { bytes in
                if bytes.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) {
                    writer.write(byte: 0x22)
                    for byte in bytes {
                        if byte == 0x22 { writer.write(byte: 0x22) }
                        writer.write(byte: byte)
                    }
                    writer.write(byte: 0x22)
                } else {
                    writer.write(bytes)
                }
            }
        }
    }

    private func writeJSONValue(_ row: Row, _ index: Int, _ kind: TableListing.Kind) {
        if row.isNull(index) {
            writer.write("null")
            return
        }
        switch kind {
        case .time:
            writer.write(byte: 0x22)
            writeTime(row.int(index))
            writer.write(byte: 0x22)
        case .integer where row.isInteger(index): writer.write(integer: row.int(index))
        case .real: writer.write(formatDecimal(row.double(index), decimals: 7))
        default: writer.write(JSONText.quote(row.string(index)))
        }
    }
}
