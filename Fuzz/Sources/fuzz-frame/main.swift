import VCProto
import FuzzDriver

/// Frame decode + validate on arbitrary bytes. Traps (a finding for libFuzzer) when an invariant breaks:
/// decode succeeds exactly when the validator reports no error, the direct path (straight from bytes)
/// and the tree path (forced by a logger) give the same result, a decoded message re-encodes to a frame
/// that decodes to the same message, every pointer is an RFC 6901 pointer, and no finding leaks a key.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let report = Validator().validate(bytes)
  for finding in report.findings {
    precondition(finding.pointer.isEmpty || finding.pointer.unicodeScalars.first == "/", "bad pointer \(finding.pointer)")
    precondition(!"\(finding) \(finding.messageType ?? "")".contains("untethered-0011"), "secret in a finding")
  }
  let decoder = MessageDecoder()
  // A logger makes the decoder take the tree path and the validator; without one it tries the direct path.
  let treeDecoder = MessageDecoder(logger: ProtocolLogger(minimumLevel: .error) { _ in })
  let direct = Result { () throws(DecodingFailure) in try decoder.decode(bytes) }
  let tree = Result { () throws(DecodingFailure) in try treeDecoder.decode(bytes) }
  switch (direct, tree) {
  case (.success(let a), .success(let b)): precondition(a == b, "direct and tree paths decode differently")
  case (.failure(let a), .failure(let b)): precondition(a.findings == b.findings, "direct and tree findings differ")
  default: preconditionFailure("direct and tree paths disagree: \(direct) vs \(tree)")
  }
  do {
    let message = try decoder.decode(bytes)
    precondition(report.isValid, "decoded a frame with errors: \(report.findings)")
    let again = try decoder.decode(MessageEncoder().encode(message))
    precondition(again == message, "round trip changed the message")
  } catch {
    precondition(!report.isValid, "refused a valid frame: \(error)")
  }
  return 0
}

runFuzzer(fuzzOne)
