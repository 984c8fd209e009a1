import NIOCore
import NIOHTTP1
import VCProtoNIO

/// One accepted socket of the tap: opens the backend connection during the app's upgrade request
/// (so the backend's answer, its subprotocol included, is what the app gets; a backend that cannot
/// be reached gets the app a 502 with the reason), then relays frames (``TapRelay``).
final class TapConnection: WebSocketUpgradeDelegate, @unchecked Sendable {
  let relay: TapRelay
  let upstream: WebSocketURL
  let admission: TapAdmission
  private var failure: (HTTPResponseStatus, String)?

  init(relay: TapRelay, upstream: WebSocketURL, admission: TapAdmission) {
    self.relay = relay
    self.upstream = upstream
    self.admission = admission
  }

  func shouldUpgrade(channel: Channel, request: HTTPRequestHead) -> EventLoopFuture<HTTPHeaders?> {
    guard admission.enter() else {
      failure = (.serviceUnavailable, "too many connections open (--max-connections \(admission.limit))")
      relay.log.connection(relay.id, "\(failure!.1); answering the app 503")
      return channel.eventLoop.makeSucceededFuture(nil)
    }
    let admission = self.admission
    relay.onEnd = { admission.leave() }
    let relayForClose = relay
    channel.closeFuture.whenComplete { _ in relayForClose.clientSocketClosed() }
    var target = upstream
    target.target = TapHandshake.upstreamTarget(base: upstream.target, request: request.uri)
    let url = target
    let headers = TapHandshake.upstreamHeaders(request.headers)
    let relay = self.relay
    let loop = channel.eventLoop
    return WebSocketClient.upgrade(to: url, headers: headers, limits: relay.limits, eventLoop: loop) {
      upstreamChannel, response in
      loop.makeCompletedFuture {
        // Not read until the app's socket is upgraded too (TapRelay.attach).
        try upstreamChannel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
        try upstreamChannel.pipeline.syncOperations.addHandler(TapRelayHandler(relay: relay, side: .upstream))
        relay.attach(.upstream, channel: upstreamChannel)
        return TapHandshake.responseHeaders(response.headers)
      }
    }.map { Optional($0) }.flatMapErrorThrowing { [self] error in
      failure = (.badGateway, "the backend \(url) could not be reached: \(error)")
      relay.log.connection(relay.id, "\(failure!.1); answering the app 502")
      return nil
    }
  }

  func upgraded(channel: Channel, request: HTTPRequestHead) -> EventLoopFuture<Void> {
    channel.eventLoop.makeCompletedFuture {
      try channel.pipeline.syncOperations.addHandler(TapRelayHandler(relay: relay, side: .client))
      relay.attach(.client, channel: channel)
    }
  }

  func refusal(for request: HTTPRequestHead) -> (HTTPResponseStatus, String) {
    if let failure { return (failure.0, "vcproto-tap: \(failure.1)") }
    return (.badRequest, "vcproto-tap: expected a WebSocket upgrade request")
  }
}
