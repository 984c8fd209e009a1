import FuzzDriver
import VCProto
import VCProtoTestSupport

/// Frame decode + validate on arbitrary bytes. Traps (a finding for libFuzzer) when an invariant breaks:
/// decode succeeds exactly when the validator reports no error, the direct path (straight from bytes)
/// and the tree path (forced by a logger) give the same result, a decoded message re-encodes to a frame
/// that decodes to the same message, every pointer is an RFC 6901 pointer, and no finding leaks a key.
///
/// Every known protocol version is exercised: the sum of the input's bytes picks it (so a one-byte
/// mutation can move a frame to another version), since the rules differ per version (0.3.0's
/// `oneOf` messages, 0.4.0's and 0.5.0's resume members and minimums).
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let versions = ProtocolVersion.allCases
  let version = versions[bytes.reduce(0) { ($0 + Int($1)) % versions.count }]
  let options = ValidationOptions(version: version)
  let report = Validator(options: options).validate(bytes)
  if let problem = FindingsCapCheck.problem(bytes, report, version: version) { preconditionFailure(problem) }
  checkValueLimit(bytes, version: version)
  for finding in report.findings {
    precondition(
      finding.pointer.isEmpty || finding.pointer.unicodeScalars.first == "/", "bad pointer \(finding.pointer)")
    precondition(!"\(finding) \(finding.messageType ?? "")".contains("untethered-0011"), "secret in a finding")
  }
  let decoder = MessageDecoder(options: options)
  // A logger makes the decoder take the tree path and the validator; without one it tries the direct path.
  let treeDecoder = MessageDecoder(options: options, logger: ProtocolLogger(minimumLevel: .error) { _ in })
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

/// Under a value limit the fuzzer reaches (``JSONLimits/maxValues`` 24), the direct path and the tree
/// path still agree: both count the same values.
func checkValueLimit(_ bytes: [UInt8], version: ProtocolVersion) {
  let options = ValidationOptions(version: version, limits: JSONLimits(maxValues: 24))
  let direct = Result { () throws(DecodingFailure) in try MessageDecoder(options: options).decode(bytes) }
  let tree = Result { () throws(DecodingFailure) in
    try MessageDecoder(options: options, logger: ProtocolLogger(minimumLevel: .error) { _ in }).decode(bytes)
  }
  switch (direct, tree) {
  case (.success(let a), .success(let b)):
    precondition(a == b, "direct and tree paths decode differently at maxValues 24")
  case (.failure(let a), .failure(let b)): precondition(a.findings == b.findings, "findings differ at maxValues 24")
  default: preconditionFailure("direct and tree paths disagree at maxValues 24: \(direct) vs \(tree)")
  }
}

runFuzzer(fuzzOne)
