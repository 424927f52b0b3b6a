import Foundation

/// An HTTP server on 127.0.0.1 for the tests of downloads: Python's `http.server`, threaded, on a
/// free port, with the request handler a test writes (a class `Handler`, given the script's
/// arguments as `args`). Stopped when released.
public final class LocalHTTPServer {
    /// `http://127.0.0.1:PORT`.
    public let base: String
    private let process: ChildProcess

    /// Starts `handler` (Python defining `Handler`) with `arguments`, its script and port file in
    /// `folder`, and waits until it listens.
    public init(handler: String, arguments: [String], folder: String) throws {
        let script = folder + "/server.py"
        let portFile = folder + "/port"
        try ("import http.server, io, os, sys, time, zipfile\nargs = sys.argv[2:]\n" + handler + """

            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
            with open(sys.argv[1] + ".part", "w") as f: f.write(str(server.server_address[1]))
            os.rename(sys.argv[1] + ".part", sys.argv[1])
            server.serve_forever()

            """).write(toFile: script, atomically: true, encoding: .utf8)
        process = try ChildProcess("/usr/bin/env", ["python3", script, portFile] + arguments)
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: portFile) { Thread.sleep(forTimeInterval: 0.05) }
        base = "http://127.0.0.1:" + (try String(contentsOfFile: portFile, encoding: .utf8))
    }

    deinit {
        process.send(SIGTERM)
        _ = process.wait()
    }
}
