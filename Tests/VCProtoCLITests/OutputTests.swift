import Foundation
import Testing
import VCProto

@testable import VCProtoCLI
@testable import VCProtoCapture

@Suite struct OutputTests {
  let capture = """
    {"direction":"server_to_client","time":"2026-01-11T09:15:02Z","data":"{\\"type\\":\\"hello\\",\\"message\\":\\"m\\",\\"version\\":\\"0.2.0\\",\\"auth_version\\":1,\\"instructions\\":\\"i\\"}"}
    {"direction":"client_to_server","time":"2026-01-11T09:15:03Z","data":"{\\"type\\":\\"connect\\",\\"api_key\\":\\"untethered-00112233445566778899aabbccddeeff\\",\\"api_kee\\":\\"untethered-00112233445566778899aabbccddeeff\\"}"}
    {"type":"set_max_message_size","size_kb":0}
    {"type":"set_max_message_size","size_kb":0}
    {"type":"ping",
    {"type":"future_thing"}

    """

  @Test func jsonLinesParseBackWithRightCounts() throws {
    let url = temporaryFile(capture, name: "c.jsonl")
    let r = runCommand(["validate", "--format", "json", url.path])
    #expect(r.status == 1)
    let lines = r.out.split(separator: "\n").map(String.init)
    let objects = try lines.map { try JSONReader().parse($0).objectValue! }
    let findings = objects.dropLast()
    #expect(
      findings.map { $0["code"]?.stringValue } == [
        "unexpected_field", "invalid_value", "invalid_value", "invalid_json", "unknown_type",
      ])
    #expect(findings.map { $0["line"]?.intValue } == [2, 3, 4, 5, 6])
    #expect(findings.map { $0["severity"]?.stringValue } == ["warning", "error", "error", "error", "warning"])
    #expect(findings[0]["direction"]?.stringValue == "client_to_server")
    #expect(findings[0]["pointer"]?.stringValue == "/api_kee")
    #expect(findings[3]["type"] == .null)
    for f in findings {
      for key in ["source", "direction", "type", "severity", "code", "pointer", "message"] {
        #expect(f[key] != nil, "missing \(key)")
      }
    }
    let summary = try #require(objects.last?["summary"]?.objectValue)
    #expect(summary["frames"]?.intValue == 6)
    #expect(summary["valid"]?.intValue == 3)
    #expect(summary["invalid"]?.intValue == 3)
    #expect(summary["errors"]?.intValue == 3)
    #expect(summary["warnings"]?.intValue == 2)
    #expect(summary["codes"]?["invalid_value"]?.intValue == 2)
    #expect(summary["types"]?["set_max_message_size"]?["frames"]?.intValue == 2)
    #expect(summary["types"]?["set_max_message_size"]?["errors"]?.intValue == 2)
  }

  @Test func strictTurnsWarningsIntoErrors() {
    let url = temporaryFile("{\"type\":\"future_thing\"}\n", name: "w.jsonl")
    #expect(runCommand(["validate", url.path]).status == 0)
    let strict = runCommand(["validate", "--strict", url.path])
    #expect(strict.status == 1)
    #expect(strict.out.contains("error: unknown message type"))
  }

  @Test func secretsNeverPrinted() {
    let url = temporaryFile(capture, name: "c.jsonl")
    for format in ["text", "json"] {
      let r = runCommand(["validate", "--format", format, url.path])
      #expect(!r.out.contains(fakeKey))
      #expect(!r.err.contains(fakeKey))
    }
    let decoded = runCommand(["decode", "-"], stdin: "{\"type\":\"connect\",\"api_key\":\"\(fakeKey)\"}")
    #expect(decoded.status == 0)
    #expect(!decoded.out.contains(fakeKey))
    #expect(decoded.out.contains("«redacted»"))
    let shown = runCommand(["decode", "--show-secrets"], stdin: "{\"type\":\"connect\",\"api_key\":\"\(fakeKey)\"}")
    #expect(shown.out.contains(fakeKey))
  }

  @Test func textLinesNameFileLineTypeAndPointer() {
    let url = temporaryFile(capture, name: "c.jsonl")
    let r = runCommand(["validate", url.path])
    #expect(
      r.out.contains("\(url.path):3: set_max_message_size /size_kb: error: 0 is below the minimum 1 [invalid_value]\n"))
    #expect(
      r.out.contains(
        "FAIL \(url.path): 6 frames, 3 valid, 3 invalid; 3 errors, 2 warnings; protocol 0.2.0 (announced by the handshake)\n"
      ))
    #expect(r.out.contains("  invalid_value"))
    #expect(!r.out.contains("\u{1B}["))
  }

  @Test func colourOnlyOnATerminalWithoutNoColor() {
    let url = temporaryFile(capture, name: "c.jsonl")
    func run(terminal: Bool, env: [String: String]) -> String {
      let out = OutputSink()
      let io = CommandIO(
        standardOutput: out, standardError: OutputSink(), standardOutputIsTerminal: terminal, environment: env)
      _ = VCProtoCommand.main(["validate", url.path], io)
      return out.text
    }
    #expect(run(terminal: true, env: [:]).contains("\u{1B}[31;1merror"))
    #expect(!run(terminal: true, env: ["NO_COLOR": "1"]).contains("\u{1B}["))
    #expect(!run(terminal: false, env: [:]).contains("\u{1B}["))
  }

  @Test func prettyPrinter() {
    let value = try! JSONReader().parse(#"{"a":[1,{"b":null}],"c":{},"d":[],"e":"x/y"}"#)
    #expect(
      PrettyPrinter.text(value) == """
        {
          "a": [
            1,
            {
              "b": null
            }
          ],
          "c": {},
          "d": [],
          "e": "x/y"
        }
        """)
  }
}
