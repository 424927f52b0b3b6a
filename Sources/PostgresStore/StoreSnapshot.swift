import FetchRequest

/// Makes again, in an SQLite file, what a PostgreSQL server's transit schema holds: the feeds an
/// import adds to, replaces one of, or downloads again, exactly as `transit import` does on a file.
///
/// The file's `CREATE` statements come from `sqlite_schema`, where `StorePublisher` kept them, so
/// the file is the one that was published: the same tables, keys, indexes and values (but for the
/// tables `write` is told to leave empty).
public struct StoreSnapshot {
    let connection: PostgresConnection

    public init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Whether the server holds a transit schema at all.
    public func exists() throws -> Bool {
        try connection.value("SELECT 1 FROM pg_namespace WHERE nspname = $1", [StorePublisher.liveSchema]) != nil
    }

    /// Writes the live schema into a new SQLite file at `path`; returns the rows copied. The
    /// tables named in `leavingEmpty` are made without their rows (those of a feed the change is
    /// to replace: the change would delete them).
    public func write(toSQLiteFileAt path: String, leavingEmpty: Set<String> = []) throws -> Int {
        let live = quoted(StorePublisher.liveSchema)
        let layout = SQLiteLayout(objects: try connection.rows(
            "SELECT type, name, tbl_name, sql FROM \(live).\(quoted(StorePublisher.layoutTable)) ORDER BY position"
        ).map { SQLiteLayout.Object(type: $0[0] ?? "", name: $0[1] ?? "", table: $0[2] ?? "", sql: $0[3] ?? "") })
        let database = try Database(path: path, mode: .readWrite)
        try database.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        // Feeds stored before the rowid was kept have no such column.
        let keptRowIDs = Set(try connection.rows("SELECT table_name FROM information_schema.columns WHERE table_schema = $1 AND column_name = $2",
                                                 [StorePublisher.liveSchema, SQLiteLayout.rowID.name]).compactMap { $0.first ?? nil })
        var rows = 0
        try database.inTransaction {
            for table in layout.tables {
                try database.execute(table.sql)
                guard !leavingEmpty.contains(table.name) else { continue }
                let columns = try SQLiteLayout.columns(of: table.name, in: database)
                let rowID = keptRowIDs.contains(table.name) && SQLiteLayout.keepsRowID(table, columns: columns)
                rows += try copyRows(of: table.name, columns: columns + (rowID ? [SQLiteLayout.rowID] : []), into: database)
            }
            for index in layout.indexes { try database.execute(index.sql) }
        }
        return rows
    }

    /// Reads every row of `table` with one `COPY … TO STDOUT` and inserts it into `database`.
    private func copyRows(of table: String, columns: [SQLiteLayout.Column], into database: Database) throws -> Int {
        let insert = try database.makeStatement("INSERT INTO \(quoted(table)) (" + columns.map { quoted($0.name) }.joined(separator: ", ") + ") VALUES ("
                                                + columns.map { _ in "?" }.joined(separator: ", ") + ")")
        let source = quoted(StorePublisher.liveSchema) + "." + quoted(table)
        var count = 0
        var field: [UInt8] = []
        try connection.copyOut("COPY \(source) (" + columns.map { quoted($0.name) }.joined(separator: ", ") + ") TO STDOUT") { line in
            var index = 0, start = 0
            let bytes = line.bindMemory(to: UInt8.self)
            let end = bytes.last == 0x0A ? bytes.count - 1 : bytes.count
            for position in 0...end where position == end || bytes[position] == 0x09 {
                try bind(UnsafeBufferPointer(rebasing: bytes[start..<position]), column: columns[index], at: Int32(index + 1),
                         to: insert, scratch: &field)
                index += 1
                start = position + 1
            }
            try insert.run()
            count += 1
        }
        return count
    }

    /// Binds one COPY text field: `\N` as NULL, else unescaped and given the column's storage class.
    private func bind(_ raw: UnsafeBufferPointer<UInt8>, column: SQLiteLayout.Column, at index: Int32, to statement: Statement,
                      scratch field: inout [UInt8]) throws {
        if raw.count == 2 && raw[0] == 0x5C && raw[1] == 0x4E { return statement.bindNull(at: index) }
        CopyField.unescape(raw, into: &field)
        if column.isBytes {
            statement.bind(bytes: CopyField.bytes(fromHex: field), at: index)
        } else if column.isInteger, let value = CopyField.integer(field) {
            statement.bind(integer: value, at: index)
        } else if column.isReal, let value = Double(String(decoding: field, as: UTF8.self)) {
            statement.bind(real: value, at: index)
        } else {
            field.withUnsafeBufferPointer { statement.bind(utf8: $0, at: index) }
        }
    }
}

/// Reading a field of `COPY`'s text format.
enum CopyField {
    /// `raw` with its backslash escapes undone, into `field`.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>, into field: inout [UInt8]) {
        field.removeAll(keepingCapacity: true)
        var escaped = false
        for byte in raw {
            guard escaped else {
                if byte == 0x5C { escaped = true } else { field.append(byte) }
                continue
            }
            escaped = false
            switch byte {
            case 0x74: field.append(0x09)  // \t
            case 0x6E: field.append(0x0A)  // \n
            case 0x72: field.append(0x0D)  // \r
            case 0x62: field.append(0x08)  // \b
            case 0x66: field.append(0x0C)  // \f
            case 0x76: field.append(0x0B)  // \v
            default: field.append(byte)    // \\ and any other character stand for themselves
            }
        }
    }

    /// A decimal integer's value, read from its bytes (no String made); nil for anything else.
    static func integer(_ text: [UInt8]) -> Int64? {
        guard !text.isEmpty, text.count <= 20 else { return nil }
        let negative = text[0] == 0x2D
        var value: Int64 = 0
        for byte in text.dropFirst(negative ? 1 : 0) {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - 0x30))
            guard !overflow && !overflow2 else { return text == Array("-9223372036854775808".utf8) ? .min : nil }
            value = sum
        }
        return negative ? (text.count > 1 ? -value : nil) : value
    }

    /// The bytes of a `bytea` in hex form (`\x0a1b…`).
    static func bytes(fromHex text: [UInt8]) -> [UInt8] {
        guard text.count >= 2 else { return [] }
        func digit(_ byte: UInt8) -> UInt8 { byte <= 0x39 ? byte - 0x30 : (byte | 0x20) - 0x57 }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((text.count - 2) / 2)
        var position = 2
        while position + 1 < text.count {
            bytes.append(digit(text[position]) << 4 | digit(text[position + 1]))
            position += 2
        }
        return bytes
    }
}
