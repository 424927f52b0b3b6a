import Foundation

/// Where the project's files are, found from this source file's location.
public enum Paths {
    /// The project root (the folder holding Package.swift).
    public static let projectRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The demo feed in `data/`.
    public static var demoFeed: String { projectRoot + "/data/lindenau" }

    /// A real feed from `../shared/feeds`, or nil when that folder is absent (then tests skip, saying so).
    public static func sharedFeed(_ name: String) -> String? {
        let path = (projectRoot as NSString).deletingLastPathComponent + "/shared/feeds/" + name
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The `transit` binary to run in end-to-end tests: `$TRANSIT_BINARY` when set (the release build
    /// in `make test`), else the one built beside the tests.
    public static var transitBinary: String {
        if let path = ProcessInfo.processInfo.environment["TRANSIT_BINARY"], !path.isEmpty { return path }
        let testBundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [testBundle, testBundle.deletingLastPathComponent(),
                          testBundle.deletingLastPathComponent().deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("transit").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return projectRoot + "/.build/debug/transit"
    }
}
