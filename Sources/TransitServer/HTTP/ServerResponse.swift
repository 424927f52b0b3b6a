import NIOCore
import NIOHTTP1

/// One answer of the server: its status, headers and body, written by `TransitHTTPHandler`.
struct ServerResponse: Sendable {
    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    var body: ByteBuffer

    init(status: HTTPResponseStatus, headers: HTTPHeaders = HTTPHeaders(), body: ByteBuffer = ByteBuffer()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Sets header `name` to `value`, replacing any value it had.
    mutating func set(_ name: String, _ value: String) {
        headers.replaceOrAdd(name: name, value: value)
    }

    /// The value of header `name` (nil when absent).
    func header(_ name: String) -> String? {
        headers.first(name: name)
    }
}
