import VCProto

extension CaptureRecord {
  /// Most connections a capture can name: ids from 0 to this.
  static let maxConnectionID: Int64 = 1 << 53

  /// Reads a JSON Lines record's `connection` member (a whole number from 0 to 2^53), which puts
  /// the frame in that connection's conversation; anything else is an `invalid_record` error.
  static func fillConnection(_ frame: inout CapturedFrame, from record: JSONObject) {
    guard let value = record["connection"] else { return }
    guard let n = value.int64Value, n >= 0, n <= maxConnectionID else {
      frame.findings.append(
        Finding(
          .error, .invalidRecord, pointer: "",
          message: "capture record's \"connection\" is \(Redaction.redacted(value).jsonText), "
            + "expected a whole number from 0"))
      return
    }
    frame.connection = Int(n)
    frame.namesConnection = true
  }

  /// The JSON Lines record of one message as `vcproto-tap` writes it (without the newline):
  /// `{"connection":N,"direction":"client_to_server","time":1764331200.123,"data":"<text>"}`, a
  /// binary message with `"opcode":2` and its bytes in base64. A text message that is not UTF-8 is
  /// written with U+FFFD in place of each invalid sequence (the record is JSON text).
  static func line(connection: Int, direction: MessageDirection, time: Double, payload: FramePayload) -> [UInt8] {
    var members = [
      JSONObject.Member(key: "connection", value: .number(JSONNumber(connection))),
      JSONObject.Member(key: "direction", value: .string(direction.rawValue)),
      JSONObject.Member(key: "time", value: .number(JSONNumber(((time * 1_000).rounded() / 1_000)))),
    ]
    switch payload {
    case .text(let bytes):
      members.append(JSONObject.Member(key: "data", value: .string(String(decoding: bytes, as: UTF8.self))))
    case .binary(let bytes):
      members.append(JSONObject.Member(key: "opcode", value: .number(JSONNumber(2))))
      members.append(JSONObject.Member(key: "data", value: .string(Base64.encode(bytes))))
    }
    return Array(JSONValue.object(JSONObject(members)).jsonText.utf8)
  }
}
