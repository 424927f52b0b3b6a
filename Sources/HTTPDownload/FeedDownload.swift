import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads a feed (or any file) over HTTP(S) into a file beside the database, the way
/// `transit import URL` and `transit realtime URL` need it: redirects followed, the user's headers
/// sent, the validators of an earlier download sent so an unchanged feed is not downloaded again,
/// progress on a terminal, and every failure one line naming the URL.
///
/// Foundation's `URLSession` (FoundationNetworking, on libcurl) is the client: only the helpers
/// `transit-import` and `transit-realtime` link it, so it adds nothing to the start-up of the query
/// commands.
public final class FeedDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// What came of a download.
    public enum Outcome {
        /// The body is in the file; the validators to send next time.
        case downloaded(etag: String?, lastModified: String?)
        /// The server says the feed has not changed since the validators sent.
        case unchanged
    }

    /// Why a download failed, said as one line with the URL.
    public struct Failure: Error, CustomStringConvertible {
        public let url: String
        public let reason: String
        public var description: String { "\(url): \(reason)" }
    }

    let url: URL
    let headers: [(name: String, value: String)]
    /// The file the body goes to; nil keeps it in `body`.
    let destination: String?
    /// The body, when there is no destination file (a realtime message: kilobytes to a few megabytes).
    public private(set) var body: [UInt8] = []
    let showProgress: Bool
    /// Seconds without progress before giving up.
    public static let timeout: TimeInterval = {
        if let text = ProcessInfo.processInfo.environment["TRANSIT_HTTP_TIMEOUT"], let seconds = Double(text), seconds > 0 { return seconds }
        return 60
    }()

    private var file: FileHandle?
    private var received: Int64 = 0
    private var expected: Int64 = -1
    private var status = 0
    private var etag: String?
    private var lastModified: String?
    private var failure: Error?
    private var lastDrawn = Date.distantPast
    private let started = Date()
    private let done = DispatchSemaphore(value: 0)

    /// A download of `url` (with `headers`) into the file `destination` (nil: into `body`), with a
    /// progress line on standard error when `showProgress`.
    public init(url: URL, headers: [(name: String, value: String)], destination: String?, showProgress: Bool) {
        self.url = url
        self.headers = headers
        self.destination = destination
        self.showProgress = showProgress
    }

    /// Runs the download; with `etag` or `lastModified` of an earlier one, asks only for a change.
    public func run(etag previousETag: String?, lastModified previousLastModified: String?) throws -> Outcome {
        if let destination {
            guard FileManager.default.createFile(atPath: destination, contents: nil), let handle = FileHandle(forWritingAtPath: destination) else {
                throw Failure(url: url.absoluteString, reason: "cannot write the download beside the database (\(destination))")
            }
            file = handle
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: FeedDownload.timeout)
        for header in headers { request.addValue(header.value, forHTTPHeaderField: header.name) }
        if let previousETag { request.setValue(previousETag, forHTTPHeaderField: "If-None-Match") }
        if let previousLastModified { request.setValue(previousLastModified, forHTTPHeaderField: "If-Modified-Since") }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = FeedDownload.timeout
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        session.dataTask(with: request).resume()
        done.wait()
        session.finishTasksAndInvalidate()
        try? file?.close()
        if showProgress { FileHandle.standardError.write("\r\u{1B}[K".data(using: .utf8)!) }
        if let failure { throw failure }
        if status == 304 { return .unchanged }
        if expected >= 0 && received < expected {
            throw Failure(url: url.absoluteString, reason: "the body ended after \(received) of \(expected) bytes (Content-Length); the connection was cut")
        }
        return .downloaded(etag: etag, lastModified: lastModified)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        status = http?.statusCode ?? 0
        if status == 304 || !(200..<300).contains(status) {
            if status != 304 {
                let reason = HTTPURLResponse.localizedString(forStatusCode: status).capitalized
                failure = Failure(url: url.absoluteString, reason: "HTTP \(status) \(reason)" + (status == 401 || status == 403 ? " (does the feed need a key? give it with --header \"NAME: VALUE\")" : ""))
            }
            completionHandler(.cancel)
            return
        }
        expected = response.expectedContentLength
        etag = http?.value(forHTTPHeaderField: "ETag")
        lastModified = http?.value(forHTTPHeaderField: "Last-Modified")
        completionHandler(.allow)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard failure == nil else { return }
        do {
            if let file { try file.write(contentsOf: data) } else { body.append(contentsOf: data) }
        } catch {
            failure = Failure(url: url.absoluteString, reason: "cannot write the download: \(error.localizedDescription)")
            dataTask.cancel()
            return
        }
        received += Int64(data.count)
        if showProgress, Date().timeIntervalSince(lastDrawn) > 0.2 {
            lastDrawn = Date()
            let seconds = max(Date().timeIntervalSince(started), 0.001)
            let rate = Double(received) / seconds
            var line = "downloading \(FeedDownload.size(received))"
            if expected > 0 { line += " of \(FeedDownload.size(expected))" }
            line += ", \(FeedDownload.size(Int64(rate)))/s"
            FileHandle.standardError.write(("\r\u{1B}[K" + line).data(using: .utf8)!)
        }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if let error, failure == nil, status != 304 {
            if expected >= 0 && received < expected {
                failure = Failure(url: url.absoluteString, reason: "the body ended after \(received) of \(expected) bytes (Content-Length); the connection was cut")
            } else {
                failure = Failure(url: url.absoluteString, reason: FeedDownload.describe(error))
            }
        }
        done.signal()
    }

    /// A network error in the words a user reads.
    public static func describe(_ error: Error) -> String {
        let code = (error as? URLError)?.code
        switch code {
        case .timedOut?: return "timed out after \(Int(timeout)) s without data"
        case .cannotConnectToHost?: return "connection refused"
        case .cannotFindHost?, .dnsLookupFailed?: return "no such host"
        case .notConnectedToInternet?, .networkConnectionLost?: return "the network connection was lost"
        case .httpTooManyRedirects?: return "too many redirects"
        case .secureConnectionFailed?, .serverCertificateUntrusted?, .serverCertificateHasBadDate?:
            return "the secure connection failed (\((error as NSError).localizedDescription))"
        default: return (error as NSError).localizedDescription
        }
    }

    /// `12.3 MB`.
    public static func size(_ bytes: Int64) -> String {
        if bytes < 1_000_000 { return "\(bytes / 1000) kB" }
        return String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
