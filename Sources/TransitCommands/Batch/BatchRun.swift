import ArgumentParser
import GTFS
#if canImport(Glibc)
import Glibc
#endif

#if canImport(Glibc)
/// glibc's `mallopt` (declared in `malloc.h`, which the Glibc module leaves out).
@_silgen_name("mallopt")
private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif

/// One row's answer: its records, and for the table format, a title and what to say when empty.
struct BatchAnswer<Record: OutputRecord> {
    let records: [Record]
    /// The question, as the table format heads its answer ("54.687, 25.28").
    let question: String
    /// The table's line when nothing matched.
    let emptyMessage: String
    /// The moment asked (departures' `--at`), when the question has one.
    let start: Int?
    /// Why nothing matched and what to try, when the command works it out.
    var note: AnswerNote?

    init(records: [Record], question: String, start: Int? = nil, emptyMessage: String, note: AnswerNote? = nil) {
        self.records = records
        self.question = question
        self.start = start
        self.emptyMessage = emptyMessage
        self.note = note
    }
}

/// `--input FILE|-`: many questions in one process, shared by `nearby`, `departures` and `search`.
struct BatchOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Answer one question per row of this CSV file (with a header; - reads standard input). The answers are concatenated in input order, each record with its row number as `input`.", valueName: "file"), completion: .file())
    var input: String?

    func validate() throws {
        if let input, input.isEmpty { throw ValidationError("--input needs a file path, or - for standard input") }
    }
}

extension BatchOptions: DirectlyReadableOptions {
    static func withDefaults() -> BatchOptions {
        var options = BatchOptions()
        options.input = nil
        return options
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        name == "input" ? line.set(&input) : nil
    }
}

/// Runs a batch: reads the rows of `input`, answers each with `answer`, and streams the
/// concatenated answers to stdout in `format` (each record with its row number first). Rows that
/// cannot be answered are said on stderr and counted; when any were, the run ends with
/// `BatchRowsFailed` (exit status 1) after answering the others.
func runBatch<Record: OutputRecord>(
    input path: String, columns: [String], format: OutputFormat, in transit: TransitDatabase,
    checkHeader: (Set<String>) throws -> Void,
    answer: (BatchRow) throws -> BatchAnswer<Record>
) throws {
    try transit.prepareForManyQueries()
    #if canImport(Glibc)
    // Each question allocates and frees a few hundred KiB (SQLite's sorter, the records): without
    // this, glibc gives the heap top back to the kernel after every question and takes it again
    // (brk), a twentieth of a departures batch.
    _ = mallopt(-1 /* M_TRIM_THRESHOLD */, 64 << 20)
    #endif
    let input = BatchInput(path: path, columns: columns)
    let output = BatchWriter<Record>(format: format, showFeed: transit.feeds.count > 1)
    let (rows, failed) = try input.forEachRow(checkHeader: checkHeader, { row in
        output.write(try answer(row), input: row.number)
        if output.writer.failed { throw StreamClosed() }
    }, afterChunk: {
        // What the chunk answered goes out now: a program feeding rows through a pipe reads
        // each answer without waiting for the end.
        output.writer.flush()
        if output.writer.failed { throw StreamClosed() }
    })
    output.finish()
    if output.writer.failed { throw StreamClosed() }
    if failed > 0 { throw BatchRowsFailed(input: input.displayName, rows: rows, failed: failed) }
}

/// Streams the answers of a batch: the header or opening once, each record as it comes (with its
/// row number as `input`), the closing at the end. Memory stays flat in the number of rows.
final class BatchWriter<Record: OutputRecord> {
    let format: OutputFormat
    let showFeed: Bool
    let writer = StreamWriter()
    private var first = true

    init(format: OutputFormat, showFeed: Bool) {
        self.format = format
        self.showFeed = showFeed
        switch format {
        case .json: writer.write("[")
        case .csv: writer.write(OutputRenderer.csvHeader(Record.self, batch: true))
        case .geojson: writer.write(OutputRenderer.geoJSONHead)
        case .table: break
        }
    }

    /// Writes one row's answer.
    func write(_ answer: BatchAnswer<Record>, input: Int) {
        switch format {
        case .json:
            for record in answer.records {
                writer.write(first ? "\n  " : ",\n  ")
                writer.write(OutputRenderer.jsonObject(record, input: input))
                first = false
            }
        case .csv:
            for record in answer.records { writer.write(OutputRenderer.csvLine(record, input: input)) }
        case .geojson:
            for record in answer.records {
                guard let feature = OutputRenderer.geoJSONFeature(record, input: input) else { continue }
                if !first { writer.write(",\n") }
                writer.write(feature)
                first = false
            }
        case .table:
            // Each answer under its own heading, tables one after the other.
            writer.write((first ? "" : "\n") + "Row \(input): \(answer.question)\n")
            writer.write(OutputRenderer.render(answer.records, as: .table, emptyMessage: answer.emptyMessage, showFeed: showFeed))
            first = false
        }
    }

    /// Closes the JSON array or the feature collection and writes what is buffered.
    func finish() {
        switch format {
        case .json: writer.write(first ? "]\n" : "\n]\n")
        case .geojson: writer.write(OutputRenderer.geoJSONTail)
        case .csv, .table: break
        }
        writer.flush()
    }
}
