import VCProto

// Test support: the tests of the client engine were written with frames as trees. These helpers
// turn a tree into what the engine takes and gives (WebSocket messages, typed messages), so that a
// test still reads as the conversation it checks. The engine itself never takes a tree from a host.

extension ClientAction {
  /// The send of `frame` exactly as the engine writes it (compact JSON, members in order).
  static func send(_ frame: JSONObject) -> ClientAction {
    var writer = JSONWriter()
    writer.write(frame)
    return .send(.text(writer.bytes))
  }
}

extension ClientEvent {
  /// The application sends `frame` (kept whole, written member for member).
  static func send(_ frame: JSONObject, requestId: String?) -> ClientEvent {
    .sendFrame(frame, requestId: requestId)
  }
}

extension ClientApplicationEvent {
  /// `frame` delivered, as the engine decodes it on a `version` connection.
  static func received(_ frame: JSONObject, version: ProtocolVersion = .v0_5_0) -> ClientApplicationEvent {
    .received(typed(frame, version))
  }

  /// `frame` delivered as the answer to `requestId`, as decoded on a `version` connection.
  static func answered(requestId: String, frame: JSONObject, version: ProtocolVersion = .v0_5_0)
    -> ClientApplicationEvent
  {
    .answered(requestId: requestId, message: typed(frame, version))
  }

  /// `frame` as the engine's decoder types it.
  static func typed(_ frame: JSONObject, _ version: ProtocolVersion) -> ServerMessage {
    var writer = JSONWriter()
    writer.write(frame)
    let decoder = MessageDecoder(
      options: ValidationOptions(direction: .serverToClient, version: version))
    return (try? decoder.decodeServerMessage(writer.bytes)) ?? .unknown(frame)
  }
}

extension WebSocketMessage {
  /// The message's JSON object (an empty one when it is not a JSON object).
  var object: JSONObject { (try? JSONReader().parse(bytes))?.objectValue ?? JSONObject() }

  /// A member of the message's JSON object.
  subscript(_ key: String) -> JSONValue? { object[key] }
}

extension ServerMessage {
  /// The message as its canonical JSON object (what ``MessageEncoder`` writes).
  var object: JSONObject { (try? JSONReader().parse(MessageEncoder().encode(self)))?.objectValue ?? JSONObject() }

  /// A member of the message's canonical JSON object.
  subscript(_ key: String) -> JSONValue? { object[key] }
}

extension SessionMessages {
  /// Each message as its canonical JSON object.
  var objects: [JSONObject] {
    encodedMessages.map { (try? JSONReader().parse($0))?.objectValue ?? JSONObject() }
  }

  /// Message `index` as its canonical JSON object.
  subscript(_ index: Int) -> JSONObject { objects[index] }
}

extension JSONObject {
  /// A valid 0.5.0 history message of `session` at `offset`.
  static func message5(_ offset: JSONValue, session: String = "s") -> JSONObject {
    var message = JSONObject()
    message["session_id"] = .string(session)
    message["uuid"] = .string("u-\(offset.jsonText)")
    message["role"] = "assistant"
    message["text"] = "m"
    message["timestamp"] = .null
    message["provider"] = "claude"
    message["offset"] = offset
    return message
  }

  /// A valid 0.4.0 history message of `session` at `seq`.
  static func message4(_ seq: JSONValue, session: String = "s") -> JSONObject {
    var message = message5(seq, session: session)
    message["offset"] = nil
    message["seq"] = seq
    return message
  }
}
