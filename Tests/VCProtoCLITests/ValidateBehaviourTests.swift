import Foundation
import Testing
import VCProto

@testable import VCProtoCLI
@testable import VCProtoCapture

@Suite struct UnreadableSourceTests {
  /// A source that cannot be read never gets an OK verdict: the summary says ERROR and names it, the
  /// JSON summary counts it, the exit status is 2, and the readable sources are still checked.
  @Test func unreadableSourcesAreAnErrorVerdict() throws {
    let good = temporaryFile("{\"type\":\"ping\"}\n", name: "good.jsonl")
    let dir = good.deletingLastPathComponent()
    let missing = dir.appendingPathComponent("nope.jsonl").path
    let r = runCommand(["validate", missing])
    #expect(r.status == 2)
    #expect(!r.out.contains("OK"))
    #expect(
      r.out.hasPrefix(
        "ERROR \(missing): 0 frames, 0 valid, 0 invalid; 0 errors, 0 warnings; 1 unreadable: \(missing)\n"))
    #expect(r.err.contains("cannot read '\(missing)': no such file"))

    let mixed = runCommand(["validate", "--format", "json", good.path, missing, dir.path])
    #expect(mixed.status == 2)
    let last = mixed.out.split(separator: "\n").last.map(String.init) ?? ""
    let summary = try #require(try JSONReader().parse(last)["summary"])
    #expect(summary["frames"]?.intValue == 1)
    #expect(summary["valid"]?.intValue == 1)
    #expect(summary["unreadable"]?.intValue == 2)
    #expect(summary["unreadable_sources"] == .array([.string(missing), .string(dir.path)]))
    #expect(mixed.err.contains("cannot read '\(dir.path)': is a directory"))

    let readable = runCommand(["validate", "--format", "json", good.path])
    #expect(readable.status == 0)
    #expect(try JSONReader().parse(readable.out)["summary"]?["unreadable"]?.intValue == 0)
  }
}

@Suite struct SecretTypeTests {
  /// A key-shaped `type` (found while extending fuzz-capture to the whole pipeline): the finding's
  /// message was masked, but the type column and the summary's per-type counts printed the key.
  @Test func keyShapedTypeIsNeverPrinted() {
    let frame = "{\"type\":\"\(fakeKey)\"}\n"
    for format in ["text", "json"] {
      let r = runCommand(["validate", "--format", format, "-"], stdin: frame)
      #expect(r.status == 0)
      #expect(!r.out.contains(fakeKey), "\(format): \(r.out)")
      #expect(r.out.contains("[unknown_type]") || r.out.contains("\"unknown_type\""))
    }
  }
}

@Suite struct TerminalBehaviourTests {
  /// A 9 MB capture (above the 8 MB progress threshold) of 200 large frames.
  static let bigCapture: URL = {
    let text = String(repeating: "x", count: 45_000)
    let line = #"{"type":"command_output","command_session_id":"c","stream":"stdout","text":"\#(text)"}"#
    return temporaryFile(String(repeating: line + "\n", count: 200), name: "big.jsonl")
  }()

  func validate(_ url: URL, stderrIsTerminal: Bool) -> (status: Int32, out: String, err: String) {
    let out = OutputSink()
    let err = OutputSink()
    let io = CommandIO(standardOutput: out, standardError: err, standardErrorIsTerminal: stderrIsTerminal)
    let status = VCProtoCommand.main(["validate", url.path], io)
    return (status, out.text, err.text)
  }

  @Test func progressOnlyWhenStandardErrorIsATerminal() {
    let size = (try? FileManager.default.attributesOfItem(atPath: Self.bigCapture.path)[.size] as? Int) ?? 0
    #expect(size >= ProgressIndicator.threshold)
    let shown = validate(Self.bigCapture, stderrIsTerminal: true)
    #expect(shown.status == 0)
    #expect(shown.err.contains("\r\u{1B}[Kvcproto: \(Self.bigCapture.path): "))
    #expect(shown.err.contains(" MB ("))
    #expect(shown.err.hasSuffix("\r\u{1B}[K"))  // erased when done
    #expect(!shown.out.contains("\u{1B}"))  // never on standard output
    let hidden = validate(Self.bigCapture, stderrIsTerminal: false)
    #expect(hidden.status == 0)
    #expect(hidden.err.isEmpty)
    #expect(hidden.out == shown.out)
  }

  @Test func smallInputsGetNoProgressEvenOnATerminal() {
    let small = temporaryFile("{\"type\":\"ping\"}\n", name: "small.jsonl")
    #expect(validate(small, stderrIsTerminal: true).err.isEmpty)
  }

  /// no-color.org: colour is off when NO_COLOR is present *and not empty*, whatever its value.
  @Test func noColorFollowsNoColorOrg() throws {
    let url = temporaryFile("{\"type\":\"set_max_message_size\",\"size_kb\":0}\n", name: "c.jsonl")
    func coloured(_ env: [String: String]) -> Bool {
      let out = OutputSink()
      let io = CommandIO(
        standardOutput: out, standardError: OutputSink(), standardOutputIsTerminal: true, environment: env)
      _ = VCProtoCommand.main(["validate", url.path], io)
      return out.text.contains("\u{1B}[")
    }
    #expect(coloured([:]))
    #expect(coloured(["NO_COLOR": ""]))
    for value in ["1", "0", "false", "no"] { #expect(!coloured(["NO_COLOR": value]), "NO_COLOR=\(value)") }
    let reference = try String(contentsOf: packageRoot.appendingPathComponent("docs/CLI.md"), encoding: .utf8)
    #expect(reference.contains("never when `NO_COLOR` is set to a non-empty value, even `0` or\n  `false`"))
    #expect(reference.contains("https://no-color.org"))
    #expect(runCommand(["validate", "--help"]).out.contains("Full reference: docs/CLI.md#validate"))
  }

  @Test func standardInputBytesAreRead() {
    let out = OutputSink()
    var io = CommandIO(standardOutput: out, standardError: OutputSink())
    io.standardInputBytes = Array("{\"type\":\"ping\"}\n{\"type\":\"pong\"}\n".utf8)
    #expect(VCProtoCommand.main(["validate", "-"], io) == 0)
    #expect(out.text.hasPrefix("OK <stdin>: 2 frames, 2 valid"))
  }
}
