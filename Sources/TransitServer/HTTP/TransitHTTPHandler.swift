import NIOCore
import NIOHTTP1

/// Answers one connection's requests, one at a time (SwiftNIO's pipeline handler holds a
/// pipelined request back until the answer before it is written): the request goes to
/// `TransitResponder`, and its response, ready at once or later on a connection's thread, is
/// written on the connection's event loop. A connection the client has closed its side of is
/// closed once its last answer is written, one idle for `--idle-timeout` seconds at once.
final class TransitHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let responder: TransitResponder
    /// The head of the request being read.
    private var head: HTTPRequestHead?
    /// False once the connection has closed: a late answer is then dropped.
    private var isOpen = true
    /// True from a request's end until its answer is written.
    private var isAnswering = false
    /// True once the client has closed its side (sent FIN): the connection is closed as soon as
    /// no answer is owed. Hummingbird's server allows half-closed connections, so without this a
    /// connection the client closed stayed open (CLOSE_WAIT), its descriptor and its task kept
    /// until shutdown: 88 of 320 connections after five wrk runs, and the memory growing with them.
    private var inputClosed = false

    init(responder: TransitResponder) {
        self.responder = responder
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            // Bodies are not read: GET and HEAD have none, other methods get 405.
            break
        case .end:
            guard let head else { return }
            self.head = nil
            isAnswering = true
            let request = ServerRequest(method: head.method, target: head.uri, headers: head.headers)
            let loop = context.eventLoop
            let connection = NIOLoopBound((handler: self, context: context), eventLoop: loop)
            let version = head.version
            let keepAlive = head.isKeepAlive
            responder.respond(to: request) { response in
                if loop.inEventLoop {
                    connection.value.handler.write(response, version: version, keepAlive: keepAlive, context: connection.value.context)
                } else {
                    loop.execute {
                        connection.value.handler.write(response, version: version, keepAlive: keepAlive, context: connection.value.context)
                    }
                }
            }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed = event as? ChannelEvent {
            inputClosed = true
            if !isAnswering { context.close(promise: nil) }
            return
        }
        // Nothing read for `--idle-timeout` seconds (SwiftNIO's IdleStateHandler): a client that
        // vanished without closing, or one that holds a connection it does not use.
        if case .read = event as? IdleStateHandler.IdleStateEvent {
            if !isAnswering { context.close(promise: nil) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        isOpen = false
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        isOpen = false
    }

    private func write(_ response: ServerResponse, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext) {
        guard isOpen else { return }
        isAnswering = false
        let keepAlive = keepAlive && !inputClosed
        var headers = response.headers
        if !keepAlive {
            headers.replaceOrAdd(name: "Connection", value: "close")
        } else if version.major == 1 && version.minor == 0 {
            headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: response.status, headers: headers))), promise: nil)
        if response.body.readableBytes > 0 {
            context.write(wrapOutboundOut(.body(.byteBuffer(response.body))), promise: nil)
        }
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        } else {
            let written = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
            let channel = context.channel
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
