import NIOCore
import NIOWebSocket
import VCProto
import VCProtoNIO

/// The two sockets of one tapped connection and everything that crosses between them, on one
/// event loop (the upstream socket is opened on the client socket's loop, so the frames of both
/// directions are handled in the order they arrived).
///
/// Every frame is forwarded as it came: same opcode, FIN and RSV bits, same payload (re-masked
/// with a new key towards the backend, unmasked towards the app, as RFC 6455 requires of a client
/// and a server), in order, invalid or not; pings, pongs and close frames included, so the close
/// handshake and its code are the two peers'. The messages (fragments reassembled, at most
/// ``WebSocketLimits/maxMessageBytes``) are handed to the ``TapObserver`` as well.
///
/// Backpressure: a side is not read while the other side's write buffer is above
/// ``WebSocketLimits/writeBufferHighWater`` (reading resumes below the low mark), so the tap holds
/// at most about one write buffer, one read and one frame being decoded per direction, plus the
/// message being reassembled.
///
/// Confined to its event loop (hence `@unchecked Sendable`: futures' callbacks run there too).
final class TapRelay: @unchecked Sendable {
  let id: Int
  let limits: WebSocketLimits
  let eventLoop: EventLoop
  let log: TapLog
  let observer: TapObserver?
  /// Called once, when neither socket is open any more (or the app left before its upgrade).
  var onEnd: (() -> Void)?
  private var channels: [TapSide: Channel] = [:]
  /// Frames from the backend that arrived before the app's socket was upgraded.
  private var early: [WebSocketFrame] = []
  private var closeFrom: Set<TapSide> = []
  private var closeTo: Set<TapSide> = []
  private var fragments: [TapSide: (opcode: WebSocketOpcode, bytes: [UInt8])] = [:]
  private var finished: Set<TapSide> = []
  private var ended = false

  init(id: Int, limits: WebSocketLimits, eventLoop: EventLoop, log: TapLog, observer: TapObserver?) {
    self.id = id
    self.limits = limits
    self.eventLoop = eventLoop
    self.log = log
    self.observer = observer
  }

  /// Adds a side's socket; the backend's is read only once the app's is there too.
  func attach(_ side: TapSide, channel: Channel) {
    eventLoop.preconditionInEventLoop()
    channels[side] = channel
    if side == .client, finished.contains(.upstream) {
      ended = true
      log.connection(id, "the backend closed the connection before the app's upgrade completed")
      sendCloseAndEnd(.client, code: .internalError, reason: "the backend closed the connection")
      return
    }
    if side == .client, let upstream = channels[.upstream] {
      for frame in early { forward(frame, from: .upstream) }
      early = []
      channel.flush()
      upstream.setOption(ChannelOptions.autoRead, value: true).whenSuccess { upstream.read() }
    }
  }

  /// A frame arrived on `side`.
  func received(_ frame: WebSocketFrame, from side: TapSide) {
    guard channels[side.other] != nil else {
      early.append(frame)
      return
    }
    forward(frame, from: side)
  }

  private func forward(_ frame: WebSocketFrame, from side: TapSide) {
    observe(frame, from: side)
    guard let target = channels[side.other], !finished.contains(side.other) else { return }
    let copy = WebSocketFrame(
      fin: frame.fin, rsv1: frame.rsv1, rsv2: frame.rsv2, rsv3: frame.rsv3, opcode: frame.opcode,
      maskKey: side == .client ? .random() : nil, data: frame.unmaskedData,
      extensionData: frame.unmaskedExtensionData)
    if frame.opcode == .connectionClose {
      closeFrom.insert(side)
      closeTo.insert(side.other)
      target.writeAndFlush(copy).whenComplete { [self] _ in closeClientIfDone() }
      scheduleForcedClose()
    } else {
      target.write(copy, promise: nil)
    }
    if !target.isWritable, let source = channels[side] {
      _ = source.setOption(ChannelOptions.autoRead, value: false)
    }
  }

  /// Both closes crossed the app's socket: the tap, its server, closes it.
  private func closeClientIfDone() {
    guard closeFrom.contains(.client), closeTo.contains(.client), let client = channels[.client] else { return }
    client.close(promise: nil)
  }

  private var forcedClose: Scheduled<Void>?

  /// After a close frame, neither socket stays open longer than the close timeout.
  private func scheduleForcedClose() {
    guard forcedClose == nil else { return }
    forcedClose = eventLoop.scheduleTask(in: .milliseconds(limits.closeTimeoutMilliseconds)) { [self] in
      for channel in channels.values { channel.close(promise: nil) }
    }
  }

  /// Reassembles messages for the observer, within the message size limit.
  private func observe(_ frame: WebSocketFrame, from side: TapSide) {
    guard let observer else { return }
    switch frame.opcode {
    case .text, .binary:
      fragments[side] = (frame.opcode, [])
    case .continuation:
      guard fragments[side] != nil else { return }
    default:
      return
    }
    guard var current = fragments[side] else { return }
    fragments[side] = nil
    let data = frame.unmaskedData
    guard current.bytes.count + data.readableBytes <= limits.maxMessageBytes else {
      fail(
        WebSocketCloseCode.messageTooBig,
        "a message from the \(side == .client ? "app" : "backend") is larger than \(limits.maxMessageBytes) bytes"
          + " (--max-message-size)")
      return
    }
    current.bytes.append(contentsOf: data.readableBytesView)
    guard frame.fin else {
      fragments[side] = current
      return
    }
    let message: WebSocketMessage = current.opcode == .text ? .text(current.bytes) : .binary(current.bytes)
    observer.observe(message, direction: side.direction, connection: id)
  }

  /// Ends both sockets with a close frame of `code` and says why on standard error.
  func fail(_ code: WebSocketCloseCode, _ reason: String) {
    guard !ended else { return }
    ended = true
    log.connection(id, "\(reason); closing both sides with \(code.rawValue)")
    for side in [TapSide.client, .upstream] { sendCloseAndEnd(side, code: code, reason: reason) }
  }

  private func sendCloseAndEnd(_ side: TapSide, code: WebSocketCloseCode, reason: String) {
    guard let channel = channels[side], !finished.contains(side) else { return }
    finished.insert(side)
    guard !closeTo.contains(side) else {
      channel.close(promise: nil)
      return
    }
    closeTo.insert(side)
    var body = channel.allocator.buffer(capacity: 2 + 123)
    body.writeInteger(code.rawValue)
    body.writeString(String(decoding: reason.utf8.prefix(123), as: UTF8.self))
    let frame = WebSocketFrame(
      fin: true, opcode: .connectionClose, maskKey: side == .upstream ? .random() : nil, data: body)
    channel.writeAndFlush(frame).whenComplete { _ in channel.close(promise: nil) }
  }

  /// The side's pending writes drained below the low mark: read the other side again.
  func writable(_ side: TapSide) {
    guard let target = channels[side], target.isWritable, let source = channels[side.other] else { return }
    source.setOption(ChannelOptions.autoRead, value: true).whenSuccess { source.read() }
  }

  /// A read batch ended on `side`: flush what it produced.
  func readComplete(_ side: TapSide) {
    channels[side.other]?.flush()
  }

  /// `side`'s socket closed.
  func inactive(_ side: TapSide) {
    finished.insert(side)
    if channels[side.other] == nil || finished.contains(side.other) {
      forcedClose?.cancel()
      end()
      return
    }
    if closeFrom.contains(side) || closeTo.contains(side) {
      // The close handshake is under way: the other side finishes it, within the close timeout.
      scheduleForcedClose()
      return
    }
    guard !ended else { return }
    ended = true
    let who = side == .client ? "the app" : "the backend"
    log.connection(id, "\(who) closed the connection without a close frame")
    sendCloseAndEnd(
      side.other, code: side == .client ? .goingAway : .internalError,
      reason: "\(who) closed the connection without a close frame")
  }

  /// The app's socket closed; when that was before its upgrade completed, the backend's socket
  /// (opened for it) is closed too, and the connection ends.
  func clientSocketClosed() {
    guard channels[.client] == nil else { return }
    finished.insert(.client)
    if let upstream = channels[.upstream], !finished.contains(.upstream) {
      upstream.close(promise: nil)
    } else {
      end()
    }
  }

  private var hasEnded = false

  private func end() {
    guard !hasEnded else { return }
    hasEnded = true
    observer?.ended(connection: id)
    onEnd?()
  }

  /// A socket failed (a WebSocket protocol error, a reset).
  func failed(_ side: TapSide, _ error: Error) {
    let who = side == .client ? "the app" : "the backend"
    if let error = error as? NIOWebSocketError {
      let raw: UInt16 = error == .invalidFrameLength ? 1009 : 1002
      fail(WebSocketCloseCode(rawValue: raw), "\(who) sent an invalid frame (\(error))")
    } else if !ended {
      log.connection(id, "\(who)'s socket failed: \(error)")
    }
  }
}

/// Hands the frames of one side of a ``TapRelay`` to it.
final class TapRelayHandler: ChannelInboundHandler {
  typealias InboundIn = WebSocketFrame

  let relay: TapRelay
  let side: TapSide

  init(relay: TapRelay, side: TapSide) {
    self.relay = relay
    self.side = side
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    relay.received(unwrapInboundIn(data), from: side)
  }

  func channelReadComplete(context: ChannelHandlerContext) {
    relay.readComplete(side)
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    relay.writable(side)
    context.fireChannelWritabilityChanged()
  }

  func channelInactive(context: ChannelHandlerContext) {
    relay.inactive(side)
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: Error) {
    relay.failed(side, error)
    context.fireErrorCaught(error)
  }
}
