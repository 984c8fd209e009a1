import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// `Vectors/messages/` as ``SwiftPeer`` answers them: the ``Validator`` judges the frame (its errors
/// are the result's `findings`, its warnings `warnings`), the ``MessageDecoder`` must agree (it
/// decodes exactly the frames without an error), and a valid frame's `canonical` is what
/// ``MessageEncoder`` writes for the decoded message.
enum MessageVectors {
  /// The result for `{frame, direction, protocol_version}`, or why there is none.
  static func answer(_ input: JSONValue) -> Result<JSONValue, SwiftPeer.Refusal> {
    guard let frame = input["frame"]?.stringValue else { return .failure(.init("the input has no \"frame\" text")) }
    var direction: MessageDirection?
    if let word = input["direction"]?.stringValue {
      guard let d = MessageDirection(rawValue: word) else { return .failure(.init("unknown direction \"\(word)\"")) }
      direction = d
    }
    guard let text = input["protocol_version"]?.stringValue else {
      return .failure(.init("the input has no \"protocol_version\""))
    }
    guard let version = ProtocolVersion(rawValue: text) else {
      return .failure(.init("unknown protocol_version \"\(text)\""))
    }
    let bytes = Array(frame.utf8)
    let options = ValidationOptions(direction: direction, version: version)
    let report = Validator(options: options).validate(bytes)
    let decoded = try? MessageDecoder(options: options).decode(bytes)
    if (decoded != nil) != report.isValid {
      let codes = report.findings.map { "\($0.code.rawValue) \($0.pointer.isEmpty ? "\"\"" : $0.pointer)" }
      return .failure(
        .init(
          "the decoder \(decoded == nil ? "refuses" : "decodes") a frame the validator finds "
            + (report.isValid ? "valid" : "invalid (\(codes.joined(separator: ", ")))")))
    }
    func list(_ findings: [Finding]) -> JSONValue {
      .array(findings.map { ["pointer": .string($0.pointer), "code": .string($0.code.rawValue)] })
    }
    var result = JSONObject([
      .init(key: "valid", value: .bool(report.isValid)),
      .init(key: "findings", value: list(report.errors)),
      .init(key: "warnings", value: list(report.findings.filter { $0.severity != .error })),
    ])
    if let decoded {
      result["canonical"] = .string(String(decoding: MessageEncoder().encode(decoded), as: UTF8.self))
    }
    return .success(.object(result))
  }
}
