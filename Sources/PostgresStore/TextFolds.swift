import FetchRequest

/// Text folding (`[c]`, `[d]`, `[cd]` in predicates) on a server.
///
/// On a file, `fetch_fold(text, options)` is a function the process registers with SQLite
/// (`Database.register(folding:)`), which a server cannot call. So the publisher stores the
/// folding's answers, and defines a `fetch_fold` of the same name and arguments in the schema, so
/// the generated SQL runs unchanged:
///
/// - ASCII text (most of a feed: ids, codes, many names) folds in SQL: `[c]` and `[cd]` lower
///   the ASCII letters (`lower` under `COLLATE "C"` lowers those only, as the folding does for
///   ASCII text), `[d]` leaves it as it is.
/// - Every other text value the feeds hold is in the table `text_folds`, with its fold for each
///   option wherever the fold changes it; a value not found there is its own fold.
///
/// The folds are made by the same Swift function as on a file, so the answers are the same.
public struct TextFolds {
    /// The model's folding, as `Database.register(folding:)` takes it.
    public typealias Folding = @Sendable (String, StringOptions) -> String

    static let table = "text_folds"
    /// The option sets a predicate can ask for.
    static let options: [StringOptions] = [.caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]]

    let connection: PostgresConnection
    let schema: String

    /// Adds the folds of `values` (text beyond ASCII) written in place (realtime) to the table,
    /// where not there already; inside the writer's transaction.
    func add(_ values: Set<String>, folding: Folding) throws {
        for value in values {
            for option in Self.options {
                let folded = folding(value, option)
                guard !folded.utf8.elementsEqual(value.utf8) else { continue }
                _ = try connection.rows("INSERT INTO \(quoted(schema)).\(quoted(Self.table)) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                                        [String(option.rawValue), value, folded])
            }
        }
    }

    /// Stores the folds of `values` (text beyond ASCII) and defines `fetch_fold`.
    func store(_ values: Set<String>, folding: Folding) throws {
        let table = quoted(schema) + "." + quoted(Self.table)
        try connection.execute("CREATE TABLE \(table) (options integer NOT NULL, value text COLLATE \"C\" NOT NULL, folded text COLLATE \"C\" NOT NULL)")
        try connection.copyIn("COPY \(table) FROM STDIN WITH (FREEZE)") { text in
            for value in values {
                for option in Self.options {
                    var folded = folding(value, option)
                    // Byte for byte: String's == holds canonically equivalent texts equal.
                    guard !folded.utf8.elementsEqual(value.utf8) else { continue }
                    text.append(integer: Int64(option.rawValue))
                    text.endField()
                    var value = value
                    value.withUTF8 { text.append(escaping: $0) }
                    text.endField()
                    folded.withUTF8 { text.append(escaping: $0) }
                    try text.endRow(sendingThrough: connection)
                }
            }
        }
        try connection.execute("ALTER TABLE \(table) ADD PRIMARY KEY (options, value); ANALYZE \(table)")
        // Read by the caller's search path (the live schema), as every other table is.
        try connection.execute("""
            CREATE FUNCTION \(quoted(schema)).fetch_fold(value text, options integer) RETURNS text
            LANGUAGE sql STABLE PARALLEL SAFE AS $$
              SELECT CASE
                WHEN octet_length(value) = char_length(value)
                  THEN CASE WHEN options & 1 <> 0 THEN lower(value COLLATE "C") ELSE value END
                ELSE coalesce((SELECT f.folded FROM \(quoted(Self.table)) f WHERE f.options = fetch_fold.options AND f.value = fetch_fold.value), value)
              END
            $$
            """)
    }
}
