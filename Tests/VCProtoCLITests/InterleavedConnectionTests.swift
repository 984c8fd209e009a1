import Foundation
import Testing
import VCProto

@testable import VCProtoCLI
@testable import VCProtoCapture

/// JSON Lines records that name their `connection` (what `vcproto-tap` writes) are checked as one
/// conversation per connection however they interleave, and `LiveValidation` reports exactly what
/// `vcproto validate` reports on the same records.
@Suite struct InterleavedConnectionTests {
  /// The sample's records, each given `"connection": id`.
  func records(_ sample: String, connection: Int) throws -> [String] {
    let text = try String(contentsOf: packageRoot.appendingPathComponent("Samples/\(sample)"), encoding: .utf8)
    return text.split(separator: "\n").map { "{\"connection\":\(connection)," + $0.dropFirst() }
  }

  /// The finding lines of a run, without the summary.
  func findingLines(_ output: String) -> [String] {
    output.split(separator: "\n").map(String.init).filter { $0.contains(": error: ") || $0.contains(": warning: ") }
  }

  @Test func interleavedConnectionsAreCheckedApart() throws {
    let first = try records("faulty-0.5.0.jsonl", connection: 7)
    let second = try records("conversation-0.5.0.jsonl", connection: 8)
    // Alone, each connection's findings; then both interleaved line by line.
    var interleaved: [String] = []
    for i in 0..<max(first.count, second.count) {
      if i < first.count { interleaved.append(first[i]) }
      if i < second.count { interleaved.append(second[i]) }
    }
    let alone = runCommand([
      "validate", "--max-findings", "unlimited", temporaryFile(first.joined(separator: "\n")).path,
    ])
    let mixed = runCommand([
      "validate", "--max-findings", "unlimited", temporaryFile(interleaved.joined(separator: "\n")).path,
    ])
    func strip(_ line: String) -> String {
      // Drop the location (line numbers differ), keep the connection and the finding.
      String(line[line.range(of: " (connection ")!.lowerBound...])
    }
    let expected = findingLines(alone.out).map(strip)
    #expect(!expected.isEmpty)
    #expect(findingLines(alone.out).allSatisfy { $0.contains("(connection 7)") })
    #expect(findingLines(mixed.out).map(strip) == expected)
    #expect(mixed.status == alone.status)
  }

  @Test func aConnectionThatIsNotAWholeNumberIsAnInvalidRecord() {
    let capture = #"{"connection":"a","direction":"client_to_server","data":"{\"type\":\"ping\"}"}"#
    let run = runCommand(["validate", temporaryFile(capture).path])
    #expect(run.out.contains("[invalid_record]"))
    #expect(run.status == 1)
  }

  @Test func jsonFindingsNameTheConnection() throws {
    let capture = try records("faulty-0.5.0.jsonl", connection: 3).joined(separator: "\n")
    let run = runCommand(["validate", "--format", "json", temporaryFile(capture).path])
    #expect(run.out.contains(#""line":4,"connection":3,"#))
  }

  @Test func liveValidationReportsWhatValidateReportsOnTheRecords() throws {
    let sample = try String(
      contentsOf: packageRoot.appendingPathComponent("Samples/faulty-0.5.0.jsonl"), encoding: .utf8)
    for format in [LiveValidation.Format.text, .json] {
      let out = OutputSink()
      let live = LiveValidation(source: "live.jsonl", format: format, strict: false, output: out)
      var check = live.connection()
      var capture: [String] = []
      for (index, line) in sample.split(separator: "\n").enumerated() {
        guard case .object(let record) = try JSONReader().parse(Array(line.utf8)),
          let data = record["data"]?.stringValue, let word = record["direction"]?.stringValue,
          let direction = MessageDirection(rawValue: word)
        else { Issue.record("sample line \(index + 1)"); return }
        let bytes = LiveValidation.record(
          connection: 2, direction: direction, time: 1_764_331_200 + Double(index) / 8, text: Array(data.utf8))
        capture.append(String(decoding: bytes, as: UTF8.self))
        check.check(record: bytes, line: index + 1)
      }
      #expect(live.finish() == 1)
      let file = temporaryFile(capture.joined(separator: "\n") + "\n", name: "live.jsonl")
      let arguments = ["validate", "--max-findings", "unlimited"] + (format == .json ? ["--format", "json"] : [])
      let run = runCommand(arguments + ["live.jsonl"], directory: file.deletingLastPathComponent().path)
      #expect(run.out == out.text)
      #expect(out.text.contains("(connection 2)") || out.text.contains(#""connection":2"#))
    }
  }
}
