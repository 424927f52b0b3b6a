import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// How Hummingbird's server sets up each accepted connection: SwiftNIO's HTTP/1.1 pipeline
/// (parsing, pipelined requests answered in order, a 400 for a malformed request, quiescing at
/// shutdown) and `TransitHTTPHandler`, which answers requests with `TransitResponder`.
///
/// Why not Hummingbird's own HTTP1Channel: it hands each request to a Swift task through an async
/// sequence, the task hands the question to Dispatch and back, and the answer goes back to the
/// event loop through an async writer: four thread changes a request, and the machinery was a
/// third of the server's CPU. Measured on 2 cores with wrk on the large feed (nearby, 8 s, the two
/// builds alternated, three pairs): 123-167 µs of server CPU a request before, 85-93 µs after,
/// 1.27-1.9x the requests a second, p99 9.4-14.6 ms -> 6.9-8.9 ms; callgrind: 578,846 -> 526,545
/// instructions a request.
struct TransitChannel: ServerChildChannel {
    /// The connection, which `handle` waits on until it closes.
    struct Value: ServerChildChannelValue {
        let channel: any Channel
    }

    let responder: TransitResponder
    /// How long a connection may send nothing before the server closes it (`--idle-timeout`).
    let idleTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: idleTimeout))
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: true)
            try channel.pipeline.syncOperations.addHandler(TransitHTTPHandler(responder: responder))
            return Value(channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        try? await value.channel.closeFuture.get()
    }
}
