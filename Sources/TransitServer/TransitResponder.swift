import FetchRequest
import GTFS
import NIOCore
import NIOHTTP1
import TransitCommands
#if canImport(Glibc)
import Glibc
#endif

/// Answers every HTTP request of `transit serve`: the JSON API under `/api/`, the pages (`/`,
/// `/board/{stop}`, `/trip/{id}`) and their files under `/static/`. Errors are JSON
/// `{"error", "parameter"}` with their status; nothing a client sends gives a 500.
struct TransitResponder: Sendable {
    let pool: ConnectionPool
    let settings: ServerSettings

    /// The longest request target accepted (path and query), in bytes.
    static let targetLimit = 4096

    /// Answers `request` through `deliver`, called once: at once for pages, files and mistakes,
    /// from a connection's thread for a question (once the connection has answered it).
    func respond(to request: ServerRequest, deliver: @escaping @Sendable (ServerResponse) -> Void) {
        let started = monotonicSeconds()
        let settings = settings
        let finish: @Sendable (ServerResponse) -> Void = { response in
            deliver(Self.finished(response, for: request, settings: settings, started: started))
        }
        switch request.method {
        case .GET, .HEAD: break
        case .OPTIONS where settings.corsOrigin != nil:
            var response = ServerResponse(status: .noContent)
            response.set("Access-Control-Allow-Methods", "GET, HEAD")
            response.set("Access-Control-Allow-Headers", "If-None-Match")
            response.set("Access-Control-Max-Age", "86400")
            return finish(response)
        default:
            var response = Self.error(.methodNotAllowed, "\(request.method.rawValue) is not allowed: this server only answers GET (and HEAD)", parameter: nil)
            response.set("Allow", "GET, HEAD")
            return finish(response)
        }
        guard request.target.utf8.count <= Self.targetLimit else {
            return finish(Self.error(.uriTooLong, "the request is longer than \(Self.targetLimit) bytes", parameter: nil))
        }
        if request.path.hasPrefix("/api/") {
            api(request, path: request.path.dropFirst(5), deliver: finish)
        } else {
            finish(pages(path: String(request.path), request: request))
        }
    }

    /// `response` as sent: CORS, the server's name and the date, no body for HEAD (but the length
    /// a GET would have), and the access log's line.
    private static func finished(_ response: ServerResponse, for request: ServerRequest, settings: ServerSettings, started: Double) -> ServerResponse {
        var response = response
        if let origin = settings.corsOrigin {
            response.set("Access-Control-Allow-Origin", origin)
            response.set("Access-Control-Expose-Headers", "Transit-Note")
            response.set("Vary", response.header("Vary").map { $0 + ", Origin" } ?? "Origin")
        }
        response.set("Date", HTTPDate.shared.now())
        response.set("Server", "transit")
        if request.method == .HEAD {
            response.body = ByteBuffer()
        }
        if !settings.quiet {
            let milliseconds = (monotonicSeconds() - started) * 1000
            let length = response.header("Content-Length") ?? "-"
            writeToStandardError("\(request.method.rawValue) \(request.target) \(response.status.code) \(length) \(formatDecimal(milliseconds, decimals: 2)) ms\n")
        }
        return response
    }

    // MARK: The API

    private func api(_ request: ServerRequest, path: Substring, deliver: @escaping @Sendable (ServerResponse) -> Void) {
        let segments = path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let endpoint = APIEndpoint.all[String(segments[0])] else {
            return deliver(Self.error(.notFound, "no such endpoint: /api/\(segments[0]); the endpoints are " + APIEndpoint.all.keys.sorted().map { "/api/" + $0 }.joined(separator: ", "), parameter: nil))
        }
        var id: String?
        if segments.count > 1 {
            guard endpoint.pathParameter != nil else {
                return deliver(Self.error(.notFound, "no such path: /api/\(path) (/api/\(endpoint.name) takes no {id})", parameter: nil))
            }
            guard let decoded = QueryString.decodePathSegment(segments[1]) else {
                return deliver(Self.error(.badRequest, "the path is not valid URL encoding", parameter: endpoint.pathParameter?.name))
            }
            id = decoded
        }
        guard let query = QueryString(request.query.map(String.init)) else {
            return deliver(Self.error(.badRequest, "the query string is not valid URL encoding (UTF-8, %XX escapes)", parameter: nil))
        }
        let explain: Bool
        let arguments: [String]
        do throws(APIEndpoint.Mistake) {
            explain = try YesNoParameter.value(ofOptional: query["explain"], named: "explain")
            if explain && query["format"] == "csv" { throw APIEndpoint.Mistake(message: "explain=1 answers JSON: leave out format=csv", parameter: "explain") }
            arguments = try endpoint.arguments(id: id, query: query)
        } catch {
            return deliver(Self.error(.badRequest, error.message, parameter: error.parameter))
        }
        let pool = pool
        let cacheControl = settings.cacheControl
        let format = query["format"] ?? endpoint.formats[0]
        let followsClock = endpoint.followsClock(query)
        let submitted = pool.submit { connection in
            // One look at the file serves the entity tag and the connection's check for a new
            // file, taken before the question starts (the tag is never newer than the answer).
            let file = DatabaseFileState(path: pool.path)
            let tag = file.map { Self.entityTag(of: $0, for: request, followsClock: followsClock) }
            if let tag, request.header("If-None-Match").map({ Self.matches($0, tag) }) == true {
                var response = ServerResponse(status: .notModified)
                response.set("ETag", tag)
                response.set("Cache-Control", cacheControl)
                return deliver(response)
            }
            let answer = connection.answer(HostedQuestion(arguments: arguments), explain: explain, timeLimit: pool.timeLimit, file: file?.identity)
            deliver(Self.response(to: answer, of: endpoint, format: explain ? nil : format, tag: tag, cacheControl: cacheControl,
                                  request: request, timeLimit: pool.timeLimit))
        }
        if !submitted {
            var response = Self.error(.serviceUnavailable, "every connection is busy and the queue is full; try again shortly", parameter: nil)
            response.set("Retry-After", "1")
            deliver(response)
        }
    }

    /// The response to a question's answer; `format` nil for an explained answer (JSON).
    private static func response(to answer: HostedAnswer, of endpoint: APIEndpoint, format: String?, tag: String?, cacheControl: String,
                                 request: ServerRequest, timeLimit: Int) -> ServerResponse {
        switch answer.outcome {
        case .answered:
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: format.map(contentType(ofFormat:)) ?? jsonType)
            headers.add(name: "Cache-Control", value: cacheControl)
            if let tag { headers.add(name: "ETag", value: tag) }
            // Why an answer is empty, or how a name was read: each JSON note the command line
            // prints under --format json, one header field each.
            for note in answer.notes.split(separator: "\n") where note.hasPrefix("{\"note\": ") {
                headers.add(name: "Transit-Note", value: Self.asciiJSON(note))
            }
            let body = Self.body(format == nil ? ExplainJSON.wrap(answer) : answer.body, headers: &headers, for: request)
            return ServerResponse(status: .ok, headers: headers, body: body)
        case .badRequest:
            return error(.badRequest, endpoint.inAPIWords(answer.message), parameter: endpoint.parameter(namedIn: answer.message))
        case .notFound:
            return error(.notFound, endpoint.inAPIWords(answer.message), parameter: endpoint.parameter(namedIn: answer.message))
        case .interrupted:
            return error(.serviceUnavailable, "the question needs more than \(timeLimit) ms of database time (the server's --time-limit); narrow it", parameter: nil)
        case .busy:
            var response = error(.serviceUnavailable, "the database was busy \(PooledConnection.attempts) times in a row (\(answer.message)); try again shortly", parameter: nil)
            response.set("Retry-After", "1")
            return response
        case .failed:
            var response = error(.serviceUnavailable, "the database cannot answer now: \(answer.message)", parameter: nil)
            response.set("Retry-After", "5")
            return response
        }
    }

    /// The answer's entity tag: the database file's state (it changes with every import and
    /// realtime refresh), the request, and, for answers that follow the clock, the minute.
    private static func entityTag(of file: DatabaseFileState, for request: ServerRequest, followsClock: Bool) -> String {
        var hash = FNVHash()
        hash.add(file.version)
        hash.add(request.target)
        if followsClock { hash.add(UInt64(bitPattern: Int64(time(nil) / 60))) }
        return hash.quotedHex
    }

    /// A JSON text with every character beyond ASCII written as `\\uXXXX` (UTF-16, as JSON has
    /// it), so it travels in a header whatever the names in it.
    static func asciiJSON(_ text: Substring) -> String {
        var result = ""
        for unit in text.utf16 {
            if unit < 0x80 {
                result.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            } else {
                let hex = String(unit, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return result
    }

    /// Whether an If-None-Match header names `tag`, its gzip form, or is `*`.
    private static func matches(_ header: String, _ tag: String) -> Bool {
        let gzipTag = Gzip.tag(tag)
        return header.split(separator: ",").contains { candidate in
            var trimmed = candidate.trimmingWhitespace()
            if trimmed.hasPrefix("W/") { trimmed = trimmed.dropFirst(2) }
            return trimmed == "*" || trimmed == tag || trimmed == gzipTag
        }
    }

    /// The body of a 200: gzip when the client accepts it and it is worth it (then
    /// `Content-Encoding`, and the entity tag of that form); `Content-Length` either way.
    private static func body(_ bytes: [UInt8], headers: inout HTTPHeaders, for request: ServerRequest, compressible: Bool = true) -> ByteBuffer {
        var bytes = bytes
        if compressible {
            headers.replaceOrAdd(name: "Vary", value: "Accept-Encoding")
            if bytes.count >= Gzip.threshold, Gzip.isAccepted(by: request.header("Accept-Encoding")), let compressed = Gzip.compress(bytes) {
                bytes = compressed
                headers.replaceOrAdd(name: "Content-Encoding", value: "gzip")
                if let tag = headers.first(name: "ETag") { headers.replaceOrAdd(name: "ETag", value: Gzip.tag(tag)) }
            }
        }
        headers.replaceOrAdd(name: "Content-Length", value: String(bytes.count))
        return ByteBuffer(bytes: bytes)
    }

    // MARK: Pages and files

    private func pages(path: String, request: ServerRequest) -> ServerResponse {
        let file: String
        if path == "/" || path == "/index.html" {
            file = "index.html"
        } else if path.hasPrefix("/board/"), path.count > 7 {
            file = "board.html"
        } else if path.hasPrefix("/trip/"), path.count > 6 {
            file = "trip.html"
        } else if path == "/favicon.ico" {
            file = "favicon.svg"
        } else if path.hasPrefix("/static/") {
            file = String(path.dropFirst(8))
        } else {
            return Self.error(.notFound, "no such page: \(path) (pages: /, /board/{stop}, /trip/{id}; the API is under /api/)", parameter: nil)
        }
        guard let bytes = EmbeddedFiles.file(named: file) else {
            return Self.error(.notFound, "no such file: \(path)", parameter: nil)
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: EmbeddedFiles.contentType(of: file))
        // The files are part of the binary: they change only with it.
        let tag = "\"" + EmbeddedFiles.versionTag + "\""
        headers.add(name: "ETag", value: tag)
        headers.add(name: "Cache-Control", value: "no-cache")
        headers.add(name: "Content-Security-Policy", value: "default-src 'self'; img-src 'self' data: blob: *; style-src 'self' 'unsafe-inline'")
        if request.header("If-None-Match").map({ Self.matches($0, tag) }) == true {
            return ServerResponse(status: .notModified, headers: headers)
        }
        let compressible = !file.hasSuffix(".png")
        let body = Self.body(bytes, headers: &headers, for: request, compressible: compressible)
        return ServerResponse(status: .ok, headers: headers, body: body)
    }

    // MARK: Helpers

    static let jsonType = "application/json; charset=utf-8"

    private static func contentType(ofFormat format: String) -> String {
        switch format {
        case "geojson": return "application/geo+json; charset=utf-8"
        case "csv": return "text/csv; charset=utf-8"
        default: return jsonType
        }
    }

    /// An error answer: `{"error": message, "parameter": name or null}`.
    static func error(_ status: HTTPResponseStatus, _ message: String, parameter: String?) -> ServerResponse {
        let body = "{\"error\": " + JSONText.quote(message) + ", \"parameter\": " + (parameter.map(JSONText.quote) ?? "null") + "}\n"
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: jsonType)
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        headers.add(name: "Cache-Control", value: "no-store")
        return ServerResponse(status: status, headers: headers, body: ByteBuffer(string: body))
    }
}
