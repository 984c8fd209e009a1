import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

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
}
