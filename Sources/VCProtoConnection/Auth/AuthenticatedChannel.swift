import VCProtoCore
import VCProtoJSON

/// Authenticated frames for one connection (capability `authenticated_frames`, STANDARDS.md#authenticated-frames):
/// seals every frame this side sends after `connected` and opens every frame it receives, refusing an
/// injected, altered, replayed, reordered or dropped one.
///
/// On the wire an authenticated frame is a text message, written exactly so (keys in this order, no
/// whitespace, the inner frame as a JSON string escaped as in STANDARDS.md#encoding):
///
/// ```
/// {"type":"authenticated","seq":0,"mac":"<64 lowercase hex>","frame":"{\"type\":\"ping\"}"}
/// ```
///
/// `mac` is HMAC-SHA256 under the direction's key (``FrameKeys``) of
/// `layout("vcproto/auth/v2/frame"; seq as an integer, frame as a string)` (``AuthMAC``), where
/// `frame` is the inner frame's UTF-8 bytes. Each direction counts from 0 and adds 1 per frame; the
/// receiver accepts exactly the next number. Compression (STANDARDS.md#compression), when negotiated, wraps the
/// authenticated frame: open the envelope first, then call ``open(_:)``.
///
/// A value type: keep one per connection and call ``seal(_:)`` and ``open(_:)`` in wire order. Any
/// failure of ``open(_:)`` is fatal; close the connection. Descriptions never show the keys.
public struct AuthenticatedChannel: Sendable {
  /// Which end of the connection this channel is.
  public enum Role: Sendable, Hashable {
    /// Seals with the client-to-server key, opens with the server-to-client key.
    case client
    /// Seals with the server-to-client key, opens with the client-to-server key.
    case server
  }

  /// The frame's `type`.
  public static let type = "authenticated"
  /// The label of a frame's MAC input.
  public static let macLabel = "vcproto/auth/v2/frame"
  /// The highest sequence number: 2^53 - 1, so that every peer (JavaScript included) reads it exactly.
  public static let maximumSequence: UInt64 = (1 << 53) - 1

  /// This end.
  public let role: Role
  let sendKey: [UInt8]
  let receiveKey: [UInt8]
  /// The sequence number the next sealed frame carries.
  public internal(set) var nextSendSequence: UInt64 = 0
  /// The sequence number the next received frame must carry.
  public private(set) var nextReceiveSequence: UInt64 = 0
  /// Whether a received frame failed; from then on every frame is refused.
  public private(set) var isClosed = false

  /// A channel for `role` with the keys of a verified handshake.
  public init(keys: FrameKeys, role: Role) {
    self.role = role
    (sendKey, receiveKey) =
      role == .client ? (keys.clientToServer, keys.serverToClient) : (keys.serverToClient, keys.clientToServer)
  }

  /// The MAC input of a frame: `layout("vcproto/auth/v2/frame"; seq, frame)`.
  public static func macInput(sequence: UInt64, frame: String) -> [UInt8] {
    AuthMAC.message(label: macLabel, fields: [("seq", .integer(Int64(sequence))), ("frame", .string(frame))])
  }

  /// The lowercase hex MAC of a frame under `key`.
  static func mac(key: [UInt8], sequence: UInt64, frame: String) -> String {
    Hex.encode(HMACSHA256.authenticationCode(key: key, message: macInput(sequence: sequence, frame: frame)))
  }

  /// Seals `frame` (a complete plain frame, UTF-8 JSON) with the next sequence number: the text
  /// message to send.
  public mutating func seal(_ frame: [UInt8]) throws(AuthenticatedFrameError) -> [UInt8] {
    let text = String(decoding: frame, as: UTF8.self)
    guard text.utf8.elementsEqual(frame) else { throw .frameNotUTF8 }
    guard nextSendSequence <= Self.maximumSequence else { throw .sequenceExhausted }
    let sequence = nextSendSequence
    nextSendSequence += 1
    var writer = JSONWriter(reservingCapacity: frame.count + 128)
    writer.beginObject()
    writer.writeKey("type", first: true)
    writer.write(Self.type)
    writer.writeKey("seq", first: false)
    writer.write(Int(sequence))
    writer.writeKey("mac", first: false)
    writer.write(Self.mac(key: sendKey, sequence: sequence, frame: text))
    writer.writeKey("frame", first: false)
    writer.write(text)
    writer.endObject()
    return writer.bytes
  }

  /// Opens a received text message: the inner frame's bytes when it is the next genuine frame, else
  /// why not (and the channel is closed for good). Checks, in order: the channel is open; the message
  /// is a JSON object (strict parsing, STANDARDS.md#encoding) of type `authenticated`
  /// (``AuthenticatedFrameError/notAuthenticated`` otherwise); it has exactly the members `type`,
  /// `seq` (an integer literal, 0 to 2^53 - 1), `mac` (64 lowercase hex) and `frame` (a string), in
  /// any order; the MAC matches (compared in constant time); `seq` is the next number.
  public mutating func open(_ message: [UInt8]) throws(AuthenticatedFrameError) -> [UInt8] {
    guard !isClosed else { throw .channelClosed }
    do {
      return try check(message)
    } catch {
      isClosed = true
      throw error
    }
  }

  private mutating func check(_ message: [UInt8]) throws(AuthenticatedFrameError) -> [UInt8] {
    let value: JSONValue
    do {
      value = try JSONReader(knownKeys: .protocolNames).parse(message)
    } catch {
      throw .malformed(reason: "not a JSON text (\(error.kind.rawValue))")
    }
    guard let object = value.objectValue else { throw .notAuthenticated }
    return Array(try check(object).utf8)
  }

  /// ``open(_:)`` for a message the host already parsed (strictly, STANDARDS.md#encoding): the
  /// inner frame's text. The connection engines receive parsed frames and open them here.
  mutating func open(object: JSONObject) throws(AuthenticatedFrameError) -> String {
    guard !isClosed else { throw .channelClosed }
    do {
      return try check(object)
    } catch {
      isClosed = true
      throw error
    }
  }

  /// ``seal(_:)`` for a frame the engines built: the authenticated frame as an object whose members
  /// are in the order a sender writes them (`type`, `seq`, `mac`, `frame`), the inner frame being
  /// `frame` written as compact JSON (``JSONValue/jsonText``).
  mutating func seal(object frame: JSONObject) throws(AuthenticatedFrameError) -> JSONObject {
    guard nextSendSequence <= Self.maximumSequence else { throw .sequenceExhausted }
    let sequence = nextSendSequence
    nextSendSequence += 1
    let text = JSONValue.object(frame).jsonText
    return JSONObject([
      .init(key: "type", value: .string(Self.type)), .init(key: "seq", value: JSONValue(integerLiteral: Int(sequence))),
      .init(key: "mac", value: .string(Self.mac(key: sendKey, sequence: sequence, frame: text))),
      .init(key: "frame", value: .string(text)),
    ])
  }

  /// The members of a received authenticated frame, checked for form only (no key): `nil`-free
  /// `seq`, `mac` and `frame` when `object` is `{"type":"authenticated",...}` with exactly those
  /// members, `seq` an integer literal from 0 to 2^53 - 1, `mac` 64 lowercase hex and `frame` a string;
  /// else ``AuthenticatedFrameError/notAuthenticated`` or ``AuthenticatedFrameError/malformed(reason:)``.
  /// What an observer without the keys can check (``ConversationObserver``).
  package static func parts(of object: JSONObject) throws(AuthenticatedFrameError) -> (
    sequence: UInt64, mac: String, frame: String
  ) {
    guard object["type"]?.stringValue == Self.type else { throw .notAuthenticated }
    for key in object.keys where !["type", "seq", "mac", "frame"].contains(key) {
      throw .malformed(reason: "a member other than type, seq, mac and frame")
    }
    guard case .number(let number)? = object["seq"], number.literal.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
      let signed = number.int64Value, signed >= 0, UInt64(signed) <= Self.maximumSequence
    else { throw .malformed(reason: "seq is not an integer from 0 to 2^53 - 1") }
    let sequence = UInt64(signed)
    guard let mac = object["mac"]?.stringValue, mac.utf8.count == 64, Hex.decode(mac) != nil else {
      throw .malformed(reason: "mac is not 64 lowercase hex digits")
    }
    guard let frame = object["frame"]?.stringValue else { throw .malformed(reason: "frame is not a string") }
    return (sequence, mac, frame)
  }

  private mutating func check(_ object: JSONObject) throws(AuthenticatedFrameError) -> String {
    let (sequence, mac, frame) = try Self.parts(of: object)
    let expected = Self.mac(key: receiveKey, sequence: sequence, frame: frame)
    guard constantTimeEquals(Array(expected.utf8), Array(mac.utf8)) else { throw .macMismatch(sequence: sequence) }
    guard sequence >= nextReceiveSequence else { throw .replayed(sequence: sequence, expected: nextReceiveSequence) }
    guard sequence == nextReceiveSequence else {
      throw .sequenceGap(sequence: sequence, expected: nextReceiveSequence)
    }
    nextReceiveSequence += 1
    return frame
  }
}

extension AuthenticatedChannel: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The role and counters, never the keys.
  public var description: String {
    "AuthenticatedChannel(role: \(role), nextSendSequence: \(nextSendSequence), "
      + "nextReceiveSequence: \(nextReceiveSequence), isClosed: \(isClosed), keys: «redacted»)"
  }
  /// Same as ``description``.
  public var debugDescription: String { description }
  /// The role and counters only, so `dump` shows no key byte.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "role": role, "nextSendSequence": nextSendSequence, "nextReceiveSequence": nextReceiveSequence,
        "isClosed": isClosed,
      ], displayStyle: .struct)
  }
}
