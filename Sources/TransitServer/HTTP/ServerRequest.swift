import NIOHTTP1

/// One request as the responder sees it: its method, target and headers (bodies are not read:
/// the server answers GET and HEAD).
struct ServerRequest: Sendable {
    let method: HTTPMethod
    /// The request target as sent (`/api/nearby?lat=…`), for the length check and the access log.
    let target: String
    /// The target's path: up to the `?`, still percent-encoded.
    let path: Substring
    /// The target's query string, after the `?` (nil when there is none).
    let query: Substring?
    let headers: HTTPHeaders

    init(method: HTTPMethod, target: String, headers: HTTPHeaders) {
        self.method = method
        self.target = target
        self.headers = headers
        // An absolute-form target (`http://host/path`, as sent to proxies) names the path after its
        // authority; the usual origin form starts with `/`.
        var rest = target[...]
        if !target.hasPrefix("/"), let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            let authority = rest[rest.index(colon, offsetBy: 3)...]
            rest = authority.firstIndex(where: { $0 == "/" || $0 == "?" }).map { authority[$0...] } ?? "/"
        }
        if let mark = rest.firstIndex(of: "?") {
            path = rest[..<mark]
            query = rest[rest.index(after: mark)...]
        } else {
            path = rest
            query = nil
        }
    }

    /// The value of header `name`, several of them joined with ", " (nil when absent).
    func header(_ name: String) -> String? {
        let values = headers[name]
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}
