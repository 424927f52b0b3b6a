import CSQLite

extension Statement {
    /// Binds `bytes` as a BLOB at the 1-based parameter `index` (SQLite copies them): how the
    /// import stores the journey planner's packed timetable, which no other storage class holds.
    public func bind(bytes: [UInt8], at index: Int32) {
        precondition(remote == nil, "a server's rows are written by its store, not bound as a BLOB")
        bytes.withUnsafeBytes { buffer in
            _ = sqlite3_bind_blob(handle, index, buffer.baseAddress, Int32(buffer.count), csqlite_transient())
        }
    }
}

extension Row {
    /// Calls `body` with the bytes of the BLOB at `index` (empty for NULL), valid only inside
    /// `body`: the planner reads its packed timetable straight out of SQLite's buffer, copying
    /// only what it keeps.
    public func withBlob<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        if let remote = statement.remote { return try body(remote.bytes(index)) }
        let pointer = sqlite3_column_blob(statement.handle, Int32(index))
        let length = Int(sqlite3_column_bytes(statement.handle, Int32(index)))
        return try body(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : length))
    }
}

extension Row {
    /// Whether column `index` holds a REAL.
    public func isReal(_ index: Int) -> Bool {
        if let remote = statement.remote { return remote.storageClass(index) == .real }
        return sqlite3_column_type(statement.handle, Int32(index)) == SQLITE_FLOAT
    }

    /// Whether column `index` holds a BLOB.
    public func isBlob(_ index: Int) -> Bool {
        if let remote = statement.remote { return remote.storageClass(index) == .blob }
        return sqlite3_column_type(statement.handle, Int32(index)) == SQLITE_BLOB
    }
}
