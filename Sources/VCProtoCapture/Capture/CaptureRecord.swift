import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// Reads the members capture formats wrap a frame in: a direction (`client_to_server`,
/// `server_to_client`, or `send`/`receive` as seen by the client), a time, the frame text in `data`,
/// and an opcode (2: binary, `data` in base64).
package enum CaptureRecord {
  /// Maps a capture's direction word to a protocol direction; `send` is what the client sent.
  static func direction(_ word: String) -> MessageDirection? {
    switch word {
    case "client_to_server", "send", "sent", "outgoing": return .clientToServer
    case "server_to_client", "receive", "received", "incoming": return .serverToClient
    default: return nil
    }
  }

  /// Fills `frame` from a record object. `directionKey` is `direction` (JSON Lines) or `type` (HAR).
  static func fill(_ frame: inout CapturedFrame, from record: JSONObject, directionKey: String) {
    if let value = record[directionKey], !value.isNull {
      if let word = value.stringValue, let direction = direction(word) {
        frame.direction = direction
      } else {
        frame.findings.append(
          Finding(
            .error, .invalidRecord, pointer: "",
            message: "capture record's \"\(directionKey)\" is \(Redaction.redacted(value).jsonText), "
              + "expected client_to_server, server_to_client, send or receive"))
      }
    }
    switch record["time"] ?? record["timestamp"] {
    case .number(let n)?:
      frame.time = n.doubleValue.map(Timestamp.seconds)
    case .string(let s)?:
      frame.time = Timestamp.seconds(s)
    default:
      break
    }
    let opcode = record["opcode"]?.int64Value ?? 1
    switch record["data"] {
    case .string(let text)?:
      if opcode == 2 {
        if let bytes = Base64.decode(text) {
          frame.payload = .binary(bytes)
        } else {
          frame.findings.append(
            Finding(.error, .invalidBase64, pointer: "", message: "binary frame's \"data\" is not valid base64"))
        }
      } else {
        frame.payload = .text(Array(text.utf8))
      }
    case .object(let object)?:
      // Some logs embed the frame as an object; validate it as its JSON text.
      frame.payload = .text(JSONValue.object(object).jsonText.utf8.map { $0 })
    default:
      frame.findings.append(
        Finding(
          .error, .invalidRecord, pointer: "", message: "capture record has no \"data\" string with the frame text"))
    }
  }
}
