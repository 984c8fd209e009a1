import VCProtoCore
import VCProtoJSON

/// The ``ClientEngine``'s name for one transport (one WebSocket) it asked its host to open with
/// ``ClientAction/openTransport(_:)``. The host reports that transport's news with the same id
/// (``ClientEvent/transportOpened(_:clientNonce:)``, ``ClientEvent/transportClosed(_:detail:)``), and
/// ``ClientAction/closeTransport(_:_:)`` names the one to close. News of any transport but the
/// engine's current one (``ClientEngine/currentTransport``) is ignored: a socket the engine already
/// closed or gave up on cannot end the connection that replaced it.
///
/// An engine numbers its transports 1, 2, 3, ... in the order it asks for them (the session vectors
/// pin the numbers); a host only compares them.
public struct TransportID: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The number.
  public let rawValue: UInt64

  /// The transport numbered `rawValue`.
  public init(_ rawValue: UInt64) { self.rawValue = rawValue }

  /// `transport 3`.
  public var description: String { "transport \(rawValue)" }

  /// By number: a later transport has a larger id.
  public static func < (a: TransportID, b: TransportID) -> Bool { a.rawValue < b.rawValue }
}
