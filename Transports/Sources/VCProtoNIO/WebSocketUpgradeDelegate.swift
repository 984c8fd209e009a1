import NIOCore
import NIOHTTP1

/// Decides, for one accepted TCP connection of a ``WebSocketListener``, whether and how its
/// upgrade request is accepted. One delegate is made per connection, and all its methods run on
/// that connection's event loop.
public protocol WebSocketUpgradeDelegate: AnyObject {
  /// The headers to add to the 101 response (besides `Upgrade`, `Connection` and
  /// `Sec-WebSocket-Accept`), or `nil` to refuse the upgrade (then ``refusal(for:)`` answers).
  func shouldUpgrade(channel: Channel, request: HTTPRequestHead) -> EventLoopFuture<HTTPHeaders?>
  /// Called once the 101 response was sent and the WebSocket frame encoder and decoder are in the
  /// pipeline: add the handlers that use the connection.
  func upgraded(channel: Channel, request: HTTPRequestHead) -> EventLoopFuture<Void>
  /// The response to a request that is not upgraded (not a WebSocket request, or refused): its
  /// status and a one-line plain-text body.
  func refusal(for request: HTTPRequestHead) -> (HTTPResponseStatus, String)
}
