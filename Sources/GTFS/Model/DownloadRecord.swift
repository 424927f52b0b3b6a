import FetchRequest

/// A row of `feed_downloads`: how a feed imported from a URL was last downloaded, the URL and the
/// validators (`ETag`, `Last-Modified`) that let the next import skip an unchanged feed.
struct DownloadRecord: CatalogRecord, Equatable {
    static let tableName = "feed_downloads"
    static let primaryKey = Columns.feed.rawValue

    enum Columns: String, CaseIterable {
        case feed, url, etag
        case lastModified = "last_modified"
    }

    /// The key of the feed (`feeds.id`).
    let feedKey: Int
    let url: String
    let etag: String?
    let lastModified: String?

    init(row: Row) throws {
        feedKey = row.int(Self.recordColumn(.feed))
        url = row.string(Self.recordColumn(.url))
        etag = row.optionalString(Self.recordColumn(.etag))
        lastModified = row.optionalString(Self.recordColumn(.lastModified))
    }

    /// The request for the download of the feed keyed `feed`.
    static func of(feed: Int) -> FetchRequest<DownloadRecord> {
        FetchRequest<DownloadRecord>().filter(column(.feed) == feed)
    }

    /// Records the download of feed `feed` from `url` with its validators.
    static func record(feed: Int, url: String, etag: String?, lastModified: String?, in database: Database) throws {
        try database.run(insert([(.feed, .integer(Int64(feed))), (.url, .text(url)), (.etag, etag.sqlValue),
                                 (.lastModified, lastModified.sqlValue)]))
    }
}
