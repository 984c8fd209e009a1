/// The bounds of one WebSocket connection: every size a peer controls is capped, and every wait
/// has a deadline.
///
/// A connection's memory is at most about ``maxFrameBytes`` (the frame being decoded) plus
/// ``maxMessageBytes`` (the message being reassembled from its fragments) plus the write buffer,
/// which stops reading from the other side above ``writeBufferHighWater`` bytes
/// (see ``WebSocketConnection`` and ``receiveQueueLength``).
public struct WebSocketLimits: Sendable, Equatable {
  /// Largest frame accepted from the peer, in bytes (default 16 MiB). A larger frame is a protocol
  /// error: the connection is closed with 1009 (message too big).
  public var maxFrameBytes: Int
  /// Largest message (all fragments together) accepted from the peer, in bytes (default 16 MiB). A
  /// larger one closes the connection with 1009.
  public var maxMessageBytes: Int
  /// Messages received and not yet taken by ``WebSocketConnection/receive()`` before reading from
  /// the socket stops (default 16).
  public var receiveQueueLength: Int
  /// Bytes waiting to be written above which the connection counts as not writable, so the other
  /// side is no longer read (default 1 MiB).
  public var writeBufferHighWater: Int
  /// Bytes waiting to be written below which it is writable again (default 256 KiB).
  public var writeBufferLowWater: Int
  /// How long a TCP connect plus the HTTP upgrade may take, in milliseconds (default 10 s).
  public var connectTimeoutMilliseconds: Int64
  /// How long to wait for the peer's close frame (or, for a client, for the server to close TCP)
  /// after sending a close frame, in milliseconds (default 5 s); then the socket is closed.
  public var closeTimeoutMilliseconds: Int64

  /// Creates limits; every argument has the default documented on its property.
  public init(
    maxFrameBytes: Int = 16 << 20, maxMessageBytes: Int = 16 << 20, receiveQueueLength: Int = 16,
    writeBufferHighWater: Int = 1 << 20, writeBufferLowWater: Int = 256 << 10,
    connectTimeoutMilliseconds: Int64 = 10_000, closeTimeoutMilliseconds: Int64 = 5_000
  ) {
    self.maxFrameBytes = min(max(maxFrameBytes, 125), Int(UInt32.max))
    self.maxMessageBytes = max(maxMessageBytes, 1)
    self.receiveQueueLength = max(receiveQueueLength, 1)
    self.writeBufferHighWater = max(writeBufferHighWater, 2)
    self.writeBufferLowWater = min(max(writeBufferLowWater, 1), max(writeBufferHighWater, 2) - 1)
    self.connectTimeoutMilliseconds = max(connectTimeoutMilliseconds, 1)
    self.closeTimeoutMilliseconds = max(closeTimeoutMilliseconds, 1)
  }

  /// The defaults.
  public static let `default` = WebSocketLimits()
}
