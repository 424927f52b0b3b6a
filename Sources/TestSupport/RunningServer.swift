import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `transit serve` process for a test: started on a free port, its URL read from the line it
/// prints, stopped (SIGTERM) when the test lets go of it.
public final class RunningServer: @unchecked Sendable {
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public let base: String
    private let child: ChildProcess
    private var stopped = false
    /// What the server wrote on stderr after its first line (the access log), read until it ends.
    private let log = LogCollector()

    /// Starts `transit serve --db database --port 0 arguments…` and waits (up to 60 s) for its URL.
    public init(database: String, arguments: [String] = []) throws {
        child = try ChildProcess(Paths.transitBinary, ["serve", "--db", database, "--port", "0"] + arguments, capture: true)
        guard let url = log.start(child: child, timeout: 60) else {
            child.send(SIGKILL)
            let status = child.wait()
            throw NSError(domain: "transit serve did not start (status \(status)): " + log.text, code: 1)
        }
        base = url
    }

    deinit {
        if !stopped {
            child.send(SIGKILL)
            child.wait()
        }
    }

    /// The process id (to send it signals).
    public var pid: pid_t { child.pid }

    /// Sends SIGTERM and waits for the server to end: its exit status, or nil when it did not end
    /// within `timeout` seconds (then it is killed).
    public func stop(timeout: Double = 20) -> Int32? {
        stopped = true
        child.send(SIGTERM)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var status: Int32 = 0
            let result = waitpid(child.pid, &status, WNOHANG)
            if result == child.pid {
                log.finish()
                return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            }
            usleep(20_000)
        }
        child.send(SIGKILL)
        child.wait()
        return nil
    }

    /// What the server has written to stderr so far.
    public var stderr: String { log.text }

    /// One HTTP answer.
    public struct Answer {
        public let status: Int
        public let headers: [String: String]
        public let body: Data
        public var text: String { String(decoding: body, as: UTF8.self) }
        /// The body parsed as JSON.
        public func json() throws -> Any { try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }
        /// A header, by name in any case.
        public func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    /// Sends `method` `target` (a path with its query, already encoded) and waits for the answer.
    public func request(_ target: String, method: String = "GET", headers: [String: String] = [:], timeout: Double = 30) throws -> Answer {
        try RunningServer.request(base + target, method: method, headers: headers, timeout: timeout)
    }

    /// Sends a request to `url` with no cache in the way (every request reaches the server).
    public static func request(_ url: String, method: String = "GET", headers: [String: String] = [:], timeout: Double = 30) throws -> Answer {
        guard let address = URL(string: url) else { throw NSError(domain: "not a URL: \(url)", code: 1) }
        var request = URLRequest(url: address, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<Answer, Error> = .failure(NSError(domain: "no answer", code: 1))
        session.dataTask(with: request) { data, response, error in
            if let error {
                result = .failure(error)
            } else if let http = response as? HTTPURLResponse {
                var fields: [String: String] = [:]
                for (name, value) in http.allHeaderFields { fields["\(name)"] = "\(value)" }
                result = .success(Answer(status: http.statusCode, headers: fields, body: data ?? Data()))
            }
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + timeout + 5) == .success else { throw NSError(domain: "no answer from \(url) in \(timeout) s", code: 1) }
        return try result.get()
    }
}

/// Reads a child's stderr on a thread: the URL line first, then everything else.
private final class LogCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var collected = Data()
    private var thread: Thread?
    private var ended = DispatchSemaphore(value: 0)

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: collected, as: UTF8.self)
    }

    /// Reads until a line holds `http://…/`; nil when the output ends or `timeout` passes first.
    func start(child: ChildProcess, timeout: Double) -> String? {
        let found = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var url: String?
        nonisolated(unsafe) let child = child
        let thread = Thread { [self] in
            let (_, _) = child.readOutput(timeout: 24 * 3600, onError: { chunk in
                self.lock.lock()
                self.collected.append(chunk)
                let text = String(decoding: self.collected, as: UTF8.self)
                self.lock.unlock()
                if url == nil, let range = text.range(of: "http://"), let end = text[range.lowerBound...].firstIndex(where: { $0 == " " || $0 == "\n" }) {
                    var address = String(text[range.lowerBound..<end])
                    if address.hasSuffix("/") { address.removeLast() }
                    url = address
                    found.signal()
                }
            })
            self.ended.signal()
            found.signal()
        }
        self.thread = thread
        thread.start()
        _ = found.wait(timeout: .now() + timeout)
        return url
    }

    /// Waits (briefly) for the output to end.
    func finish() {
        _ = ended.wait(timeout: .now() + 5)
    }
}
