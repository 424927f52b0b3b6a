import Foundation
import GTFS
import ZIPFoundation

/// Opens the feed at `path`: a folder, or a file that must be a zip archive.
public func openFeedOrZip(at path: String) throws -> FeedSource {
    if FileSystem.kind(of: path) == .file { return try ZipFeed(path: path) }
    return try openFolderFeed(at: path)
}

/// A feed in a `.zip` archive, its entries inflated as a stream (ZIPFoundation's consumer closure),
/// never extracted to disk.
///
/// The `.txt` files may sit at the top or inside one folder; `__MACOSX/` and hidden entries
/// (`._stops.txt`) are ignored. When a name appears at several depths, the shallowest wins.
struct ZipFeed: FeedSource {
    let location: String
    private let archive: Archive
    private let entries: [String: Entry]

    init(path: String) throws {
        location = path
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw FeedError(file: path, message: "is not a readable zip archive (\(ZipFeed.reason(error))); give a GTFS .zip or a folder")
        }
        var chosen: [String: (entry: Entry, depth: Int)] = [:]
        for entry in archive where entry.type == .file {
            let components = entry.path.split(separator: "/").map(String.init)
            guard let name = components.last, name.hasSuffix(".txt"), !name.hasPrefix("."),
                  !components.contains(where: { $0 == "__MACOSX" || $0.hasPrefix(".") }) else { continue }
            let depth = components.count
            if let existing = chosen[name], existing.depth <= depth { continue }
            chosen[name] = (entry, depth)
        }
        entries = chosen.mapValues(\.entry)
    }

    func contains(_ name: String) -> Bool { entries[name] != nil }

    func read(_ name: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let entry = entries[name] else {
            throw FeedError(file: name, message: "is not in \(location)")
        }
        do {
            _ = try archive.extract(entry, bufferSize: 1 << 20, skipCRC32: false) { data in
                try data.withUnsafeBytes { try body($0) }
            }
        } catch let error as Archive.ArchiveError {
            throw FeedError(file: name, message: "cannot be inflated from \(location): the archive is damaged or truncated (\(ZipFeed.reason(error)))")
        }
    }

    /// ZIPFoundation's error in words (its cases are Swift names such as
    /// `missingEndOfCentralDirectoryRecord`).
    static func reason(_ error: Error) -> String {
        guard let error = error as? Archive.ArchiveError else { return "\(error)" }
        switch error {
        case .unreadableArchive: return "it cannot be read"
        case .missingEndOfCentralDirectoryRecord: return "its end is missing: the file is cut short or not a zip at all"
        case .invalidCentralDirectoryEntryCount, .invalidCentralDirectoryOffset, .invalidCentralDirectorySize:
            return "its table of contents is damaged"
        case .invalidCRC32: return "a file's checksum does not match: the data is damaged"
        case .invalidCompressionMethod: return "a file is compressed in a way zip readers do not know"
        case .invalidEntryPath, .invalidLocalHeaderDataOffset, .invalidLocalHeaderSize, .invalidEntrySize:
            return "a file's entry is damaged"
        default: return "it is damaged (\(error))"
        }
    }
}
