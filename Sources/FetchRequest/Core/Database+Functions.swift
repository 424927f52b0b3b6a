import CSQLite

extension Database {
    /// Defines the SQL function `fetch_fold(text, options)` on this connection: `folding` applied
    /// to `text` with `options` (a `StringOptions` raw value), NULL for NULL. Predicates with
    /// `[c]`, `[d]` or `[cd]` fold the column with it and the value in Swift with the same closure.
    ///
    /// Deterministic, so SQLite may evaluate it once per row and use it in indexes on expressions.
    public func register(folding: @escaping @Sendable (String, StringOptions) -> String) throws {
        let box = Unmanaged.passRetained(FoldingBox(folding)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, SQLFunction.fold.rawValue, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, count, values in
                guard let context, count == 2, let values, let textValue = values[0], let optionsValue = values[1] else { return }
                guard sqlite3_value_type(textValue) != SQLITE_NULL, let bytes = sqlite3_value_text(textValue) else {
                    sqlite3_result_null(context)
                    return
                }
                let box = Unmanaged<FoldingBox>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                let text = String(cString: bytes)
                let options = StringOptions(rawValue: Int(sqlite3_value_int64(optionsValue)))
                let folded = box.folding(text, options)
                sqlite3_result_text(context, folded, -1, csqlite_transient())
            },
            nil, nil,
            { pointer in
                if let pointer { Unmanaged<FoldingBox>.fromOpaque(pointer).release() }
            })
        guard code == SQLITE_OK else { throw DatabaseError(code: code, message: lastErrorMessage) }
    }
}

/// Holds the folding closure for SQLite's C callback (its user data pointer).
private final class FoldingBox {
    let folding: @Sendable (String, StringOptions) -> String
    init(_ folding: @escaping @Sendable (String, StringOptions) -> String) { self.folding = folding }
}
