/// Where a feed's files come from: a `.zip` archive or a folder.
///
/// Files are read as a stream of chunks, never whole, so memory does not grow with the feed.
public protocol FeedSource {
    /// The path the user gave, for messages and the metadata table.
    var location: String { get }
    /// True when the feed has the GTFS file `name` (`stops.txt`).
    func contains(_ name: String) -> Bool
    /// Calls `body` with the bytes of file `name`, chunk after chunk, in order.
    func read(_ name: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws
}

/// Opens the feed at `path` when it is a folder. Zip archives are opened by the `GTFSZip` module
/// (`openFeedOrZip(at:)`), which keeps ZIPFoundation, and the Foundation it needs, out of the
/// query commands.
public func openFolderFeed(at path: String) throws -> FeedSource {
    switch FileSystem.kind(of: path) {
    case .directory:
        return try FolderFeed(path: path)
    case .file:
        throw FeedError(file: path, message: "is a file; this build reads feeds from folders only (unzip it, or use transit import)")
    case .missing:
        throw FeedError(file: path, message: "no such file or folder; give a GTFS .zip or a folder of .txt files")
    }
}
