import NIOCore
import NIOWebSocket
import VCProto

/// The WebSocket protocol of one ``WebSocketConnection``, on its channel's event loop: reassembles
/// fragments into messages (at most ``WebSocketLimits/maxMessageBytes``), answers pings, runs the
/// close handshake (RFC 6455 section 7: the peer's close code echoed, a server closes TCP after the
/// handshake, a client waits for the server to, both at most ``WebSocketLimits/closeTimeoutMilliseconds``),
/// and holds at most ``WebSocketLimits/receiveQueueLength`` received messages: while the queue is
/// full it does not read from the socket, so a slow reader slows the peer down instead of growing
/// memory.
final class WebSocketMessageHandler: ChannelDuplexHandler {
  typealias InboundIn = WebSocketFrame
  typealias OutboundIn = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  let isClient: Bool
  let limits: WebSocketLimits
  private var context: ChannelHandlerContext?
  private var fragments: (opcode: WebSocketOpcode, bytes: [UInt8])?
  private var queue: [WebSocketMessage] = []
  private var queueHead = 0
  private var waiters: [EventLoopPromise<WebSocketReceived>] = []
  private var readPending = false
  private var closeSent = false
  private var closeTimer: Scheduled<Void>?
  /// The peer's close frame (code 1005 when it had none), once it arrived.
  private(set) var peerClose: WebSocketClose?
  /// The close frame this side sent when it failed the connection (1002, 1009), if it did.
  private var failure: WebSocketClose?
  /// The peer's close code (1005 when its close frame had none), once its close frame arrived.
  var peerCloseCode: WebSocketCloseCode? { peerClose?.code }
  /// How the connection ended, for ``next(on:)`` once it is closed: the peer's close frame, else
  /// the one this side failed it with, else 1006.
  private var ending: WebSocketClose { peerClose ?? failure ?? .abnormal }
  /// Whether the channel is closed.
  private(set) var isClosed = false

  init(isClient: Bool, limits: WebSocketLimits) {
    self.isClient = isClient
    self.limits = limits
  }

  func handlerAdded(context: ChannelHandlerContext) {
    self.context = context
    if !context.channel.isActive { isClosed = true }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    self.context = nil
  }

  private var queued: Int { queue.count - queueHead }

  // MARK: inbound

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let frame = unwrapInboundIn(data)
    switch frame.opcode {
    case .text, .binary:
      guard fragments == nil else { return fail(.protocolError, "a new message began inside a fragmented one") }
      fragments = (frame.opcode, [])
      append(frame)
    case .continuation:
      guard fragments != nil else { return fail(.protocolError, "continuation frame with no message begun") }
      append(frame)
    case .ping:
      guard !closeSent else { return }
      write(WebSocketFrame(fin: true, opcode: .pong, maskKey: mask(), data: frame.unmaskedData), flush: true)
    case .pong:
      break
    case .connectionClose:
      var data = frame.unmaskedData
      let code = data.readInteger(as: UInt16.self).map(WebSocketCloseCode.init(rawValue:)) ?? .noStatusReceived
      if peerClose == nil {
        let reason = data.readString(length: data.readableBytes) ?? ""
        peerClose = WebSocketClose(code: code, reason: reason)
      }
      if !closeSent {
        // Echo the peer's code (a frame with none gets none back).
        var body = context.channel.allocator.buffer(capacity: 2)
        if code != .noStatusReceived { body.writeInteger(code.rawValue) }
        sendClose(body: body)
      }
      if !isClient {
        context.close(promise: nil)
      }
    default:
      break
    }
  }

  private func append(_ frame: WebSocketFrame) {
    guard var current = fragments else { return }
    let data = frame.unmaskedData
    guard current.bytes.count + data.readableBytes <= limits.maxMessageBytes else {
      fragments = nil
      return fail(.messageTooBig, "message larger than \(limits.maxMessageBytes) bytes")
    }
    fragments = nil  // keep the array uniquely referenced while it grows
    current.bytes.append(contentsOf: data.readableBytesView)
    guard frame.fin else {
      fragments = current
      return
    }
    deliver(current.opcode == .text ? .text(current.bytes) : .binary(current.bytes))
  }

  private func deliver(_ message: WebSocketMessage) {
    if !waiters.isEmpty {
      waiters.removeFirst().succeed(.message(message))
    } else {
      queue.append(message)
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    isClosed = true
    closeTimer?.cancel()
    let waiting = waiters
    waiters = []
    for waiter in waiting { waiter.succeed(.closed(ending)) }
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: Error) {
    context.close(promise: nil)
  }

  // MARK: outbound

  func read(context: ChannelHandlerContext) {
    if queued >= limits.receiveQueueLength {
      readPending = true
    } else {
      context.read()
    }
  }

  /// The next message; once the connection is closed and every received message was taken, how it
  /// ended.
  func next(on eventLoop: EventLoop) -> EventLoopFuture<WebSocketReceived> {
    if queued > 0 {
      let message = queue[queueHead]
      queueHead += 1
      if queueHead > 64, queueHead * 2 > queue.count {
        queue.removeFirst(queueHead)
        queueHead = 0
      }
      if readPending, queued < limits.receiveQueueLength, let context {
        readPending = false
        context.read()
      }
      return eventLoop.makeSucceededFuture(.message(message))
    }
    if isClosed { return eventLoop.makeSucceededFuture(.closed(ending)) }
    let promise = eventLoop.makePromise(of: WebSocketReceived.self)
    waiters.append(promise)
    return promise.futureResult
  }

  /// Sends one message as one frame; the future completes when it was written to the socket.
  func send(_ message: WebSocketMessage, on eventLoop: EventLoop) -> EventLoopFuture<Void> {
    guard let context, !closeSent, !isClosed else { return eventLoop.makeFailedFuture(WebSocketError.closed) }
    let bytes = message.bytes
    var buffer = context.channel.allocator.buffer(capacity: bytes.count)
    buffer.writeBytes(bytes)
    let opcode: WebSocketOpcode
    if case .text = message { opcode = .text } else { opcode = .binary }
    let promise = eventLoop.makePromise(of: Void.self)
    context.writeAndFlush(
      wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, maskKey: mask(), data: buffer)), promise: promise)
    return promise.futureResult
  }

  /// Starts the close handshake with `code` and `reason` (at most 123 bytes of it are sent).
  func close(code: WebSocketCloseCode, reason: String) {
    guard let context, !closeSent, !isClosed else { return }
    var body = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
    body.writeInteger(code.rawValue)
    body.writeBytes(reason.utf8.prefix(123))
    sendClose(body: body)
  }

  private func sendClose(body: ByteBuffer) {
    guard let context, !closeSent else { return }
    closeSent = true
    write(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: mask(), data: body), flush: true)
    let channel = context.channel
    closeTimer = context.eventLoop.scheduleTask(in: .milliseconds(limits.closeTimeoutMilliseconds)) {
      channel.close(promise: nil)
    }
  }

  private func fail(_ code: WebSocketCloseCode, _ reason: String) {
    guard let context else { return }
    if failure == nil {
      failure = WebSocketClose(code: code, reason: String(decoding: reason.utf8.prefix(123), as: UTF8.self))
    }
    var body = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
    body.writeInteger(code.rawValue)
    body.writeBytes(reason.utf8.prefix(123))
    if !closeSent {
      closeSent = true
      write(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: mask(), data: body), flush: true)
    }
    context.close(promise: nil)
  }

  private func write(_ frame: WebSocketFrame, flush: Bool) {
    guard let context else { return }
    if flush {
      context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    } else {
      context.write(wrapOutboundOut(frame), promise: nil)
    }
  }

  private func mask() -> WebSocketMaskingKey? {
    isClient ? .random() : nil
  }
}
