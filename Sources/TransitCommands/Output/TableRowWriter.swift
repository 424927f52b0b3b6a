import ArgumentParser
import FetchRequest
import GTFS

/// Writes rows of a listing as CSV (RFC 4180) or a JSON array, straight from SQLite's bytes.
final class TableRowWriter {
    let listing: EntityListing
    let writer: StreamWriter
    let format: ListCommand.ListFormat
    private var first = true
    private let names: [[UInt8]]

    /// The columns: `feed`, then the listing's fields.
    private let fields: [EntityListing.Field]

    init(listing: EntityListing, writer: StreamWriter, format: ListCommand.ListFormat) {
        self.listing = listing
        self.writer = writer
        self.format = format
        fields = [EntityListing.Field(name: "feed", kind: .text)] + listing.fields
        names = fields.map { Array(JSONText.quote($0.name).utf8) }
    }

    func begin() {
        if format == .csv {
            writer.write(fields.map(\.name).joined(separator: ",") + "\r\n")
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
        for (index, field) in fields.enumerated() {
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

    private func writeCSVValue(_ row: Row, _ index: Int, _ kind: EntityListing.Kind) {
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

    private func writeJSONValue(_ row: Row, _ index: Int, _ kind: EntityListing.Kind) {
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
