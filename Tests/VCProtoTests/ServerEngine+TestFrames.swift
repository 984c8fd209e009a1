@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The tests' shorthand for driving a ``ServerEngine`` with frames written as `JSONObject`s: a
/// received frame is its compact JSON text, an application frame the typed message of the newest
/// version it is valid in (kept whole as `.unknown` when it is valid in none).
extension ServerEvent {
  /// `frame` received as a text message.
  static func frameReceived(_ frame: JSONObject) -> ServerEvent { .received(.text(JSONValue.object(frame).jsonText)) }

  /// `frame` sent by the application, typed.
  static func sendFrame(_ frame: JSONObject) -> ServerEvent { .send(.typed(frame)) }
}

extension ServerMessage {
  /// `frame` as the typed message of the newest version it is valid in, else `.unknown(frame)`.
  static func typed(_ frame: JSONObject) -> ServerMessage {
    let bytes = Array(JSONValue.object(frame).jsonText.utf8)
    for version in ProtocolVersion.allCases.reversed() {
      let decoder = MessageDecoder(options: ValidationOptions(direction: .serverToClient, version: version))
      if let message = try? decoder.decodeServerMessage(bytes) { return message }
    }
    return .unknown(frame)
  }
}

extension ServerAction {
  /// The frame of a `.send` action, parsed (`nil` for other actions).
  var sentFrame: JSONObject? {
    guard case .send(let message) = self else { return nil }
    return (try? JSONReader().parse(message.bytes))?.objectValue
  }

  /// A `.send` of `frame` as the engine encodes it (typed, in the catalog's member order).
  static func sending(_ frame: JSONObject) -> ServerAction { .send(.text(MessageEncoder().encode(.typed(frame)))) }
}

extension [ServerAction] {
  /// The frames sent, parsed, in order.
  var sentFrames: [JSONObject] { compactMap(\.sentFrame) }
}

extension ClientMessage {
  /// `frame` as the typed message of `version` (the engine's decoder's verdict; `.unknown` when it
  /// does not decode).
  static func typed(_ frame: JSONObject, version: ProtocolVersion = .v0_5_0) -> ClientMessage {
    let decoder = MessageDecoder(options: ValidationOptions(direction: .clientToServer, version: version))
    return (try? decoder.decodeClientMessage(Array(JSONValue.object(frame).jsonText.utf8))) ?? .unknown(frame)
  }
}
