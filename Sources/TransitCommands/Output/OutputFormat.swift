import ArgumentParser
import GTFS

/// The formats every query command writes: a table for people, JSON, CSV and GeoJSON for programs.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    case table, json, csv, geojson
}

/// One result row as each format needs it.
protocol OutputRecord {
    /// The JSON keys, CSV header and GeoJSON property names, in order, after `feed`.
    static var fieldNames: [String] { get }
    /// The values for `fieldNames`.
    var fieldValues: [OutputValue] { get }
    /// The name of the feed the record comes from: the first field of every format.
    var feed: String { get }
    /// Where the record is on a map (latitude, longitude), for GeoJSON.
    var coordinate: (latitude: Double, longitude: Double)? { get }
    /// The human table's headers.
    static var tableHeaders: [String] { get }
    /// Which table columns are right-aligned (numbers).
    static var rightAligned: Set<Int> { get }
    /// The human table's cells, already formatted ("85 m").
    var tableCells: [String] { get }
    /// Table columns left out when every row's cell is empty (departures' Realtime column
    /// without realtime data).
    static var omittedWhenEmpty: Set<Int> { get }
    /// How each table cell is drawn when colour is on (empty: plain).
    var tableStyles: [CellStyle] { get }
    /// The table columns that may be shortened (with "…") to fit the terminal: names.
    static var truncatable: Set<Int> { get }
}

extension OutputRecord {
    static var rightAligned: Set<Int> { [] }
    static var omittedWhenEmpty: Set<Int> { [] }
    var tableStyles: [CellStyle] { [] }
    static var truncatable: Set<Int> { [] }
}

/// Writes records in the chosen format.
enum OutputRenderer {
    /// The whole output for `records`; `emptyMessage` is the friendly line a table shows when
    /// nothing matched (JSON gives `[]`, CSV just the header, GeoJSON an empty collection).
    /// With `showFeed`, a table gets a Feed column (the other formats always carry `feed`).
    static func render<Record: OutputRecord>(_ records: [Record], as format: OutputFormat, emptyMessage: String, showFeed: Bool = false) -> String {
        switch format {
        case .json:
            if records.isEmpty { return "[]\n" }
            return "[\n" + records.map { "  " + jsonObject($0) }.joined(separator: ",\n") + "\n]\n"
        case .csv:
            return csvHeader(Record.self) + records.map { csvLine($0) }.joined()
        case .geojson:
            return geoJSONHead + records.compactMap { geoJSONFeature($0) }.joined(separator: ",\n") + geoJSONTail
        case .table:
            if records.isEmpty { return emptyMessage + "\n" }
            let style = TableStyle.current
            var headers = Record.tableHeaders
            var rows = records.map(\.tableCells)
            var styles: [[CellStyle]] = style.color ? records.map { record -> [CellStyle] in
                let given = record.tableStyles
                return given.isEmpty ? Array(repeating: CellStyle.none, count: headers.count) : given
            } : []
            var rightAligned = Record.rightAligned
            var truncatable = Record.truncatable
            func shift(_ columns: Set<Int>, removing column: Int) -> Set<Int> {
                Set(columns.compactMap { $0 == column ? nil : ($0 > column ? $0 - 1 : $0) })
            }
            for column in Record.omittedWhenEmpty.sorted(by: >) where rows.allSatisfy({ $0[column].isEmpty }) {
                headers.remove(at: column)
                for index in rows.indices { rows[index].remove(at: column) }
                for index in styles.indices { styles[index].remove(at: column) }
                rightAligned = shift(rightAligned, removing: column)
                truncatable = shift(truncatable, removing: column)
            }
            if showFeed {
                headers.append("Feed")
                rows = zip(rows, records).map { $0 + [$1.feed] }
                styles = styles.map { $0 + [.none] }
            }
            return table(headers: headers, rows: rows, rightAligned: rightAligned, styles: styles, truncatable: truncatable, style: style)
        }
    }

    /// One record as a JSON object: `input` first in a batch run, then `feed`, then its fields.
    static func jsonObject<Record: OutputRecord>(_ record: Record, input: Int? = nil) -> String {
        (input.map { "{\"input\": \($0), " } ?? "{") + "\"feed\": " + JSONText.quote(record.feed) + ", "
            + zip(Record.fieldNames, record.fieldValues).map { JSONText.quote($0) + ": " + $1.json }.joined(separator: ", ") + "}"
    }

    /// The CSV header line: `input` first in a batch run, then `feed`, then the fields.
    static func csvHeader<Record: OutputRecord>(_: Record.Type, batch: Bool = false) -> String {
        ((batch ? ["input", "feed"] : ["feed"]) + Record.fieldNames).joined(separator: ",") + "\r\n"
    }

    /// One record as a CSV line (RFC 4180, CRLF).
    static func csvLine<Record: OutputRecord>(_ record: Record, input: Int? = nil) -> String {
        (input.map { "\($0)," } ?? "") + ([OutputValue.text(record.feed)] + record.fieldValues).map(\.csv).joined(separator: ",") + "\r\n"
    }

    /// What a GeoJSON FeatureCollection opens and closes with.
    static let geoJSONHead = "{\"type\": \"FeatureCollection\", \"features\": [\n"
    static let geoJSONTail = "\n]}\n"

    /// One record as a GeoJSON Point feature with its fields as properties; nil without a position.
    static func geoJSONFeature<Record: OutputRecord>(_ record: Record, input: Int? = nil) -> String? {
        guard let point = record.coordinate else { return nil }
        return "    {\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": ["
            + formatDecimal(point.longitude, decimals: 7) + ", " + formatDecimal(point.latitude, decimals: 7)
            + "]}, \"properties\": " + jsonObject(record, input: input) + "}"
    }

    /// Columns padded to their widest cell (in characters as a terminal shows them). With a
    /// `style` width, the `truncatable` columns are shortened, widest first, until each line fits
    /// (a cell cut ends in "…"); with colour, headers are bold and cells drawn in their `styles`.
    static func table(headers: [String], rows: [[String]], rightAligned: Set<Int>, styles: [[CellStyle]] = [],
                      truncatable: Set<Int> = [], style: TableStyle = .plain) -> String {
        var widths = headers.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        if let available = style.width {
            // Never below the header's width or 6 characters.
            let floor = headers.map { max($0.count, 6) }
            while widths.reduce(0, +) + 2 * (widths.count - 1) > available,
                  let widest = truncatable.filter({ widths[$0] > floor[$0] }).max(by: { widths[$0] < widths[$1] }) {
                widths[widest] -= 1
            }
        }
        func fitted(_ cell: String, _ width: Int) -> String {
            cell.count <= width ? cell : String(cell.prefix(width - 1)) + "…"
        }
        func line(_ cells: [String], _ cellStyles: [CellStyle]?) -> String {
            var text = ""
            for (index, original) in cells.enumerated() {
                let cell = fitted(original, widths[index])
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                let last = index == cells.count - 1
                let escape = cellStyles.map { index < $0.count ? $0[index].escape : "" } ?? ""
                let drawn = escape.isEmpty || cell.isEmpty ? cell : escape + cell + CellStyle.reset
                text += rightAligned.contains(index) ? padding + drawn : drawn + (last ? "" : padding)
                if !last { text += "  " }
            }
            return text
        }
        let head = line(headers, nil)
        return ([style.color ? CellStyle.bold + head + CellStyle.reset : head]
                + rows.enumerated().map { line($1, styles.isEmpty ? nil : styles[$0]) }).joined(separator: "\n") + "\n"
    }
}

