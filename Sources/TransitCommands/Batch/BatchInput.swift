import ArgumentParser
import GTFS

/// The questions of a batch run: a CSV file (or standard input, `-`) with a header, one question
/// per row, read as it arrives so input of any length takes constant memory and a program feeding
/// standard input gets each answer as soon as its row is complete.
struct BatchInput {
    /// The file's path, or `-` for standard input.
    let path: String
    /// The columns this command reads; every other column is ignored (and said so once).
    let columns: [String]

    /// The name used in messages: the path, or "standard input".
    var displayName: String { path == "-" ? "standard input" : path }

    /// Reads the header, checks it with `checkHeader` (which throws a `BatchInputError` naming what
    /// is missing), then calls `body` for every row, in order. A row that `body` cannot answer
    /// (it throws) is reported on stderr with its number and counted; the run goes on.
    /// Returns how many rows were read and how many failed.
    func forEachRow(checkHeader: (Set<String>) throws -> Void, _ body: (BatchRow) throws -> Void, afterChunk: () throws -> Void) throws -> (rows: Int, failed: Int) {
        let reader = CSVReader(fileName: displayName)
        reader.acceptsRaggedRecords = true
        var positions: [String: Int]?
        var rows = 0
        var failed = 0
        func handle(_ record: CSVRecord) throws {
            if positions == nil {
                positions = try headerPositions(reader.header, checkHeader: checkHeader)
            }
            rows += 1
            let row = BatchRow(number: rows, record: record, positions: positions!, headerCount: reader.header.count)
            do {
                try row.checkFieldCount()
                try body(row)
            } catch let error as StreamClosed {
                throw error
            } catch {
                failed += 1
                writeToStandardError("\(displayName): row \(rows) (line \(record.line)): \(BatchInput.describe(error))\n")
            }
        }
        let readChunk: (UnsafeRawBufferPointer) throws -> Void = { chunk in
            try reader.consume(chunk, handle)
            try afterChunk()
        }
        do {
            if path == "-" {
                try FileSystem.read(descriptor: 0, name: displayName, readChunk)
            } else {
                try FileSystem.read(path, readChunk)
            }
            try reader.finish(handle)
        } catch let error as FeedError {
            throw BatchInputError(error.description)
        }
        // A header with no rows: still check it, so a wrong file is said even when empty.
        if positions == nil { _ = try headerPositions(reader.header, checkHeader: checkHeader) }
        return (rows, failed)
    }

    /// The positions of the columns read; unknown ones are said once on stderr.
    private func headerPositions(_ header: [String], checkHeader: (Set<String>) throws -> Void) throws -> [String: Int] {
        var positions: [String: Int] = [:]
        for (index, name) in header.enumerated() where columns.contains(name) { positions[name] = index }
        try checkHeader(Set(positions.keys))
        let ignored = header.filter { !$0.isEmpty && !columns.contains($0) }
        if !ignored.isEmpty {
            writeToStandardError("\(displayName): ignoring column\(ignored.count == 1 ? "" : "s") \(ignored.joined(separator: ", ")) (this command reads \(columns.joined(separator: ", ")))\n")
        }
        return positions
    }

    /// An error's one-line message.
    static func describe(_ error: Error) -> String {
        if let validation = error as? ValidationError { return validation.message }
        return String(describing: error)
    }
}

/// One question of a batch: a CSV row, read by column name.
struct BatchRow {
    /// The row's number, 1-based, header excluded: the `input` field of its answers.
    let number: Int
    let record: CSVRecord
    let positions: [String: Int]
    let headerCount: Int

    /// A row must have as many fields as the header (empty trailing ones excepted).
    func checkFieldCount() throws {
        if record.count < headerCount {
            throw BatchInputError("\(record.count) field\(record.count == 1 ? "" : "s") where the header has \(headerCount)")
        }
        for extra in headerCount..<max(headerCount, record.count) where !record.isEmpty(extra) {
            throw BatchInputError("\(record.count) fields where the header has \(headerCount)")
        }
    }

    /// The text of `column`, or nil when the file has no such column or the cell is empty (the
    /// flag's value applies then).
    func text(_ column: String) throws -> String? {
        guard let position = positions[column], !record.isEmpty(position) else { return nil }
        guard let text = record.string(position) else { throw BatchInputError("\(column) is not valid UTF-8 text") }
        return text
    }

    /// `column` as a number in [`range`], or nil when empty.
    func number(_ column: String, range: ClosedRange<Double>, unit: String) throws -> Double? {
        guard let text = try text(column) else { return nil }
        guard let value = Double(text), value.isFinite, text.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw BatchInputError("\(column) '\(text)' is not a number")
        }
        guard range.contains(value) else {
            throw BatchInputError("\(column) \(text) is outside [\(formatDecimal(range.lowerBound, decimals: 0)), \(formatDecimal(range.upperBound, decimals: 0))]\(unit)")
        }
        return value
    }

    /// `column` as a whole number in `range`, or nil when empty.
    func integer(_ column: String, range: ClosedRange<Int>, meaning: String) throws -> Int? {
        guard let text = try text(column) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw BatchInputError("\(column) '\(text)' is not \(meaning)")
        }
        return value
    }

    /// The row's coordinate (`lat`, `lon`), both required.
    func coordinate() throws -> Coordinate {
        guard let latitude = try number("lat", range: -90...90, unit: " degrees") else { throw BatchInputError("lat is empty") }
        guard let longitude = try number("lon", range: -180...180, unit: " degrees") else { throw BatchInputError("lon is empty") }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// `radius` in metres, else `fallback`.
    func radius(else fallback: Double) throws -> Double {
        guard let radius = try number("radius", range: 0...100_000, unit: " metres") else { return fallback }
        guard radius > 0 else { throw BatchInputError("radius must be above 0 metres") }
        return radius
    }

    /// `limit` (0: no limit), else `fallback`.
    func limit(else fallback: Int) throws -> Int {
        try integer("limit", range: 0...Int.max, meaning: "a limit (0: no limit, or more)") ?? fallback
    }
}

/// A problem with a batch file or one of its rows, said in one line.
struct BatchInputError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The run ended with some rows unanswered: exit status 1, after the answers to the others.
struct BatchRowsFailed: Error, CustomStringConvertible {
    let input: String
    let rows: Int
    let failed: Int
    var description: String {
        "\(input): \(formatCount(failed)) of \(formatCount(rows)) row\(rows == 1 ? "" : "s") could not be answered (said above); the other \(formatCount(rows - failed)) were"
    }
}
