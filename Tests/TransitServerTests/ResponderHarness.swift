import Foundation
import GTFS
import NIOCore
import NIOHTTP1
import TestSupport
@testable import TransitServer

/// A `TransitResponder` on a database built in process, asked as a client would ask the server,
/// without a port: each request answered synchronously (a question runs on the pool's thread).
final class ResponderHarness: @unchecked Sendable {
    /// The demo feed (data/lindenau), imported once for every test that only reads it.
    static let demo: ResponderHarness = {
        let folder = TemporaryDirectory()
        let path = folder.file("demo.sqlite")
        do {
            _ = try Importer(feedPath: Paths.demoFeed, databasePath: path).run()
        } catch {
            fatalError("cannot import the demo feed: \(error)")
        }
        return ResponderHarness(database: path, keeping: folder)
    }()

    /// The database file.
    let database: String
    let pool: ConnectionPool
    /// The folder holding `database`, kept as long as the harness.
    private let folder: TemporaryDirectory?

    /// A harness on the database at `database` (two connections, a generous time budget).
    init(database: String, keeping folder: TemporaryDirectory? = nil) {
        self.database = database
        self.folder = folder
        pool = ConnectionPool(path: database, connections: 2, queueLimit: 16, timeLimit: 10_000, cores: 2)
    }

    /// A harness on a database imported from `fixture`, in `folder`.
    static func importing(_ fixture: FeedFixture, into folder: TemporaryDirectory) throws -> ResponderHarness {
        let path = folder.file("fixture.sqlite")
        _ = try Importer(feedPath: try fixture.write(to: folder), databasePath: path).run()
        return ResponderHarness(database: path, keeping: folder)
    }

    /// The response to `method target` with `headers`, from a responder of `settings` (no access
    /// log by default).
    func answer(_ target: String, method: HTTPMethod = .GET, headers: [(String, String)] = [],
                settings: ServerSettings = ServerSettings(quiet: true)) -> ServerResponse {
        let responder = TransitResponder(pool: pool, settings: settings)
        let request = ServerRequest(method: method, target: target, headers: HTTPHeaders(headers))
        let delivered = DeliveredResponse()
        responder.respond(to: request) { response in delivered.set(response) }
        return delivered.wait()
    }
}

/// The response a responder delivers, maybe from another thread, waited for.
private final class DeliveredResponse: @unchecked Sendable {
    private var response: ServerResponse?
    private let arrived = DispatchSemaphore(value: 0)

    func set(_ response: ServerResponse) {
        self.response = response
        arrived.signal()
    }

    func wait() -> ServerResponse {
        guard arrived.wait(timeout: .now() + 60) == .success, let response else { fatalError("no response within 60 s") }
        return response
    }
}

extension ServerResponse {
    /// The body as text.
    var text: String { String(buffer: body) }

    /// The body parsed as JSON.
    func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(body.readableBytesView), options: [.fragmentsAllowed]) }
}
