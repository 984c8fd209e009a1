import Foundation
import TransportTestSupport
import VCProto
import VCProtoCapture

/// `vcproto validate --max-findings unlimited FILE` (``CaptureValidator``, the command's code), in this
/// process: its exit status and output.
func validate(_ capture: URL) -> (status: Int32, out: String) {
  let out = OutputSink()
  let validator = CaptureValidator(output: out, maxFindings: nil)
  if let source = ByteSource.open(path: capture.path) {
    try? validator.validate(source, name: capture.path)
  } else {
    validator.unreadable(name: capture.path)
  }
  return (validator.finish(), out.text)
}

/// Frames written as the JSON Lines `vcproto validate` reads (`{"direction","time","data"}`).
final class CaptureWriter: @unchecked Sendable {
  let url = temporaryDirectory().appendingPathComponent("capture.jsonl")
  private let lock = NSLock()
  private var lines: [String] = []

  /// Records one frame's text.
  func record(_ direction: String, _ text: String) {
    let time = Date().timeIntervalSince1970
    let record: JSONValue = [
      "direction": .string(direction), "time": .number(JSONNumber(time)), "data": .string(text),
    ]
    let line = record.jsonText
    lock.withLock { lines.append(line) }
  }

  /// Writes the file.
  func write() throws {
    let text = lock.withLock { lines.joined(separator: "\n") + "\n" }
    try text.write(to: url, atomically: true, encoding: .utf8)
  }
}
