/// How the server was asked to behave (`transit serve`'s options).
struct ServerSettings: Sendable {
    /// `--cors ORIGIN`: the origin allowed to read answers from a browser (nil: none).
    var corsOrigin: String?
    /// `--quiet`: no access log.
    var quiet = false
    /// The `Cache-Control` of API answers: as long as the realtime refresh, else revalidate.
    var cacheControl = "no-cache"
}
