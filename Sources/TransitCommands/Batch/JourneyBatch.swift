import GTFS

/// `plan --input` / `reach --input`: one question per CSV row, in one process (the planner reads
/// each pattern once for all of them). JSON is one array with one object per row in input order,
/// `{"input": n, …the answer…}`, or `{"input": n, "error": "…"}` for a bad row; the table gives
/// each answer under its row number. Bad rows are also said on stderr, counted, and make the exit
/// status 1.
func runJourneyBatch(input path: String, columns: [String], format: OutputFormat, in transit: TransitDatabase, required: [String],
                     explain: Bool, answer: (BatchRow, JourneyPlanner) throws -> String) throws {
    try transit.prepareForManyQueries()
    let planner = try transit.journeyPlanner()
    let input = BatchInput(path: path, columns: columns)
    let writer = StreamWriter()
    var first = true
    if format == .json { writer.write("[") }
    let (rows, failed) = try input.forEachRow(checkHeader: { header in
        for name in required where !header.contains(name) {
            throw BatchInputError("the header has no \(name) column (the columns are \(columns.joined(separator: ", ")))")
        }
    }, { row in
        do {
            let text = try answer(row, planner)
            switch format {
            case .json:
                // `{"journeys": …}` becomes `{"input": n, "journeys": …}`.
                writer.write((first ? "\n  " : ",\n  ") + "{\"input\": \(row.number), " + text.dropFirst().trimmingNewline)
            default:
                writer.write((first ? "" : "\n") + "# input \(row.number)\n" + text)
            }
            first = false
        } catch let error as StreamClosed {
            throw error
        } catch {
            if format == .json {
                writer.write((first ? "\n  " : ",\n  ") + "{\"input\": \(row.number), \"error\": \(JSONText.quote(BatchInput.describe(error)))}")
                first = false
            }
            throw error
        }
        if writer.failed { throw StreamClosed() }
    }, afterChunk: {
        writer.flush()
        if writer.failed { throw StreamClosed() }
    })
    if format == .json { writer.write(first ? "]\n" : "\n]\n") }
    writer.flush()
    if explain { try JourneyOutput.explain(planner) }
    if writer.failed { throw StreamClosed() }
    if failed > 0 { throw BatchRowsFailed(input: input.displayName, rows: rows, failed: failed) }
}

extension BatchRow {
    /// The text of `column`, which must not be empty.
    func required(_ column: String) throws -> String {
        guard let text = try text(column) else { throw BatchInputError("\(column) is empty") }
        return text
    }
}

private extension Substring {
    /// The text without its last newline.
    var trimmingNewline: Substring { last == "\n" ? dropLast() : self }
}
