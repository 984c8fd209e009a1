import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

extension ConformanceKind {
  /// `envelope/`: the peer opens `envelope_base64` as `form`. A valid vector must open to `json` byte
  /// for byte (`opened_base64`), an invalid one must give the vector's `error` code.
  static let envelope = ConformanceKind(
    name: "envelope",
    input: { members(of: $0, ["form", "envelope_base64"]) },
    compare: { vector, result in
      guard let valid = vector["valid"]?.boolValue else { return ["the vector has no boolean \"valid\""] }
      let opened = result["opened_base64"]?.stringValue
      let error = result["error"]?.stringValue
      if valid {
        guard let json = vector["json"]?.stringValue else { return ["the valid vector has no \"json\""] }
        guard let opened else { return ["expected the inner frame, the peer says \(error ?? show(result))"] }
        guard let bytes = Base64.decode(opened) else { return ["\"opened_base64\" is not base64"] }
        return bytes == Array(json.utf8)
          ? [] : ["opened to \(bytes.count) bytes that differ from \"json\" (\(json.utf8.count) bytes)"]
      }
      guard let code = vector["error"]?.stringValue else { return ["the invalid vector has no \"error\""] }
      if let error { return error == code ? [] : ["expected \(code), the peer says \(error)"] }
      return [
        "expected \(code), the peer opened it" + (opened.map { " (\(Base64.decode($0)?.count ?? 0) bytes)" } ?? "")
      ]
    })
}
