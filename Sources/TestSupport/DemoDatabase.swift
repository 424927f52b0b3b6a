import Foundation

/// A database imported from `data/` once per test process, shared read-only by the CLI tests.
public enum DemoDatabase {
    private static let shared = TemporaryDirectory()
    nonisolated(unsafe) private static var imported: [String: String] = [:]
    private static let lock = NSLock()

    /// The path of a database imported from `feed` (the demo feed by default) with the built binary.
    public static func path(feed: String = Paths.demoFeed) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let path = imported[feed] { return path }
        let path = shared.file("db\(imported.count).sqlite")
        let run = try CommandRun.transit(["import", feed, "--db", path, "--quiet"])
        guard run.status == 0 else { throw NSError(domain: "import failed: " + run.stderr, code: Int(run.status)) }
        imported[feed] = path
        return path
    }
}
