import VCProto
import FuzzDriver

/// Frame decode + validate on arbitrary bytes. Traps (a finding for libFuzzer) when an invariant breaks:
/// decode succeeds exactly when the validator reports no error, a decoded message re-encodes to a frame
/// that decodes to the same message, every pointer is an RFC 6901 pointer, and no finding leaks a key.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let report = Validator().validate(bytes)
  for finding in report.findings {
    precondition(finding.pointer.isEmpty || finding.pointer.hasPrefix("/"), "bad pointer \(finding.pointer)")
    precondition(!finding.message.contains("untethered-0011"), "secret in a finding")
  }
  let decoder = MessageDecoder()
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
