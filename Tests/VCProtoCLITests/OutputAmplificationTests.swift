import Foundation
import Testing
import VCProto

@testable import VCProtoCLI
@testable import VCProtoCapture

/// `vcproto validate` on a hostile capture must not print much more than it read: a 2-byte garbage
/// line drew a ~100-byte finding (51x in text, 97x in JSON, more with a longer path, which every
/// finding repeats) with no cap on their number, and an
/// `unexpected_field` finding printed a huge member name twice (pointer and message).
@Suite(.tags(.slow), .enabled(if: slowSuitesRun)) struct OutputAmplificationTests {
  /// Runs `validate` on `capture`, written as `name` in a fresh directory and named relatively (so
  /// the location column is as short as a user's would be).
  static func validate(_ capture: String, _ options: [String] = [], name: String = "g.jsonl") -> (
    status: Int32, out: String, err: String
  ) {
    let url = temporaryFile(capture, name: name)
    return runCommand(["validate"] + options + [name], directory: url.deletingLastPathComponent().path)
  }

  static func garbage(lines: Int) -> String { String(repeating: "x\n", count: lines) }

  /// Lines of the text output that are findings (`file:line: …`).
  static func findingLines(_ out: String, name: String = "g.jsonl") -> [Substring] {
    out.split(separator: "\n").filter { $0.hasPrefix(name + ":") }
  }

  /// The most characters a text finding line has besides its capture's path (which every line
  /// repeats whole): the line number (at most 20 digits), the type, pointer and message as
  /// ``TerminalText`` cuts them (each with its `…`), the severity, the code (the longest is 34
  /// characters; 40 allowed) and the separators. README.md: "at most about 700 characters".
  static let textLineBound =
    20 + (TerminalText.maxNameLength + 1) + (TerminalText.maxPointerLength + 1)
    + (TerminalText.maxMessageLength + 1) + "warning".count + 40 + ":: : : : []".count

  /// 100,000 garbage lines: the default cap (1000) prints 1000 findings and counts the other 99,000.
  /// What README.md says: whatever the capture's size, the output is the summary and at most
  /// `--max-findings` findings, each one line of at most ``textLineBound`` characters plus the
  /// capture's path. Twice the capture prints the same findings; a 200-character path makes every
  /// finding longer by its extra length, in text and JSON, and nothing else changes.
  @Test func garbageCaptureOutputIsTheCappedFindingsEachBoundedPlusThePath() throws {
    let capture = Self.garbage(lines: 100_000)
    let text = Self.validate(capture)
    #expect(text.status == 1)
    let findings = Self.findingLines(text.out)
    #expect(findings.count == 1_000)
    #expect(
      text.out.contains(
        "FAIL g.jsonl: 100000 frames, 0 valid, 100000 invalid; 100000 errors, 0 warnings; "
          + "99000 findings not shown (--max-findings 1000)"))
    #expect(text.out.contains("invalid_json         100000"))
    let tooLong = findings.filter { $0.unicodeScalars.count > "g.jsonl".count + Self.textLineBound }
    #expect(tooLong.isEmpty, "\(tooLong.first ?? "")")
    let summaryBytes = text.out.utf8.count - findings.reduce(0) { $0 + $1.utf8.count + 1 }
    #expect(summaryBytes < 1_000, "summary: \(summaryBytes) bytes")

    let twice = Self.validate(Self.garbage(lines: 200_000))
    #expect(Self.findingLines(twice.out) == findings)
    #expect(twice.out.contains("; 199000 findings not shown (--max-findings 1000)"))

    let long = String(repeating: "n", count: 200) + ".jsonl"
    let longText = Self.validate(capture, name: long)
    let longFindings = Self.findingLines(longText.out, name: long)
    #expect(longFindings.map { String($0.dropFirst(long.count)) } == findings.map { String($0.dropFirst(7)) })
    #expect(
      longText.out.utf8.count <= 1_000 * (long.utf8.count + Self.textLineBound + 1) + summaryBytes + long.utf8.count,
      "text: \(longText.out.utf8.count) bytes")
    // With this path the output is over half the capture's size: the size claim README.md used to
    // make ("under half its size in text") held only for short paths.
    #expect(longText.out.utf8.count * 2 > capture.utf8.count)

    let json = Self.validate(capture, ["--format", "json"])
    #expect(json.status == 1)
    let lines = json.out.split(separator: "\n")
    #expect(lines.count == 1_001)
    let summary = try #require(try JSONReader().parse(String(lines.last!))["summary"])
    #expect(summary["errors"]?.intValue == 100_000)
    #expect(summary["max_findings"]?.intValue == 1_000)
    #expect(summary["findings_not_shown"]?.intValue == 99_000)
    #expect(summary["codes"]?["invalid_json"]?.intValue == 100_000)
    let twiceJSON = Self.validate(Self.garbage(lines: 200_000), ["--format", "json"])
    #expect(twiceJSON.out.split(separator: "\n").dropLast() == lines.dropLast())
    let longJSON = Self.validate(capture, ["--format", "json"], name: long).out.split(separator: "\n")
    #expect(longJSON.count == 1_001)
    #expect(
      longJSON.dropLast().map { $0.replacingOccurrences(of: #""source":"\#(long)""#, with: #""source":"g.jsonl""#) }
        == lines.dropLast().map(String.init))
  }

  /// Findings that quote as much of the capture as text output shows (a long type and member name
  /// made of characters it escapes) stay within ``textLineBound`` plus the path, and come close to it.
  @Test func textFindingLinesAtTheirLongestStayWithinTheBound() {
    // ESC as a JSON escape (raw it would be invalid JSON), RLO raw, and a two-byte letter.
    let escapes = String(repeating: #"\u001b"# + "\u{202E}é", count: 2_000)
    let capture = #"{"type":"\#(escapes)"}"# + "\n" + #"{"type":"ping","\#(escapes)":1}"# + "\n"
    let r = Self.validate(capture)
    let findings = Self.findingLines(r.out)
    #expect(findings.count == 2)
    let longest = findings.map { $0.unicodeScalars.count - "g.jsonl".count }.max() ?? 0
    #expect(longest <= Self.textLineBound)
    #expect(longest > Self.textLineBound / 2, "the bound is not far from what a line can reach")
  }

  /// The cap counts over the whole run, not per capture; `0` prints only the summary; `unlimited`
  /// prints everything; the exit status is the same whatever the cap.
  @Test func capSemantics() throws {
    let capture = Self.garbage(lines: 30)
    let unlimited = Self.validate(capture, ["--max-findings", "unlimited"])
    #expect(unlimited.status == 1)
    #expect(Self.findingLines(unlimited.out).count == 30)
    #expect(!unlimited.out.contains("not shown"))

    let none = Self.validate(capture, ["--max-findings", "0"])
    #expect(none.status == 1)
    #expect(Self.findingLines(none.out).isEmpty)
    #expect(none.out.contains("; 30 findings not shown (--max-findings 0)"))

    let five = Self.validate(capture, ["--max-findings=5", "--format", "json"])
    #expect(five.status == 1)
    let lines = five.out.split(separator: "\n")
    #expect(lines.count == 6)
    let summary = try #require(try JSONReader().parse(String(lines.last!))["summary"])
    #expect(summary["findings_not_shown"]?.intValue == 25)
    #expect(summary["errors"]?.intValue == 30)
    let all = try #require(
      try JSONReader().parse(
        Self.validate(capture, ["--format", "json", "--max-findings", "unlimited"]).out.split(separator: "\n").last.map(
          String.init) ?? "")["summary"])
    #expect(all["max_findings"] == .null)
    #expect(all["findings_not_shown"]?.intValue == 0)

    // Two captures of 3 bad lines each, cap 4: four printed over the run, two counted.
    let dir = temporaryFile(Self.garbage(lines: 3), name: "a.jsonl").deletingLastPathComponent()
    try Data(Self.garbage(lines: 3).utf8).write(to: dir.appendingPathComponent("b.jsonl"))
    let two = runCommand(["validate", "--max-findings", "4", "a.jsonl", "b.jsonl"], directory: dir.path)
    #expect(two.status == 1)
    #expect(Self.findingLines(two.out, name: "a.jsonl").count == 3)
    #expect(Self.findingLines(two.out, name: "b.jsonl").count == 1)
    #expect(two.out.contains("6 errors, 0 warnings; 2 findings not shown (--max-findings 4)"))

    // A clean capture stays OK (exit 0) with any cap, and says nothing about the cap.
    let clean = Self.validate(#"{"type":"ping"}"# + "\n", ["--max-findings", "0"])
    #expect(clean.status == 0)
    #expect(!clean.out.contains("not shown"))
  }

  /// Warnings only: the capped run still exits 0; the library's per-frame cap (100, then one
  /// `findings_suppressed`) applies first, and the run cap counts what that leaves.
  @Test func perFrameAndRunCapsCompose() {
    var members = #"{"type":"ping""#
    for i in 0..<300 { members += #","u\#(i)":1"# }
    let frame = members + "}\n"
    let r = Self.validate(frame, ["--max-findings", "50"])
    #expect(r.status == 0)
    #expect(Self.findingLines(r.out).count == 50)
    // 100 unexpected_field findings kept by the frame, plus its findings_suppressed: 101, 51 not shown.
    #expect(r.out.contains("0 errors, 101 warnings; 51 findings not shown (--max-findings 50)"))
    #expect(r.out.contains("findings_suppressed  1"))
    #expect(r.out.contains("unexpected_field     100"))
  }

  @Test(arguments: ["-1", "abc", "", "1.5", "+3", "99999999999999999999999", "Unlimited"])
  func badValueIsAUsageError(value: String) {
    let r = Self.validate(Self.garbage(lines: 1), ["--max-findings=\(value)"])
    #expect(r.status == 2)
    #expect(r.err.contains("invalid value '\(value)' for '--max-findings'"))
    #expect(r.err.contains("usage: vcproto validate"))
    #expect(r.out.isEmpty)
  }

  /// A 100,000-character member name: JSON keeps the pointer exact (RFC 6901, `/` + the name) and
  /// the message quotes 60 characters of it, so the output is about one copy of the name.
  @Test func longMemberNameIsPrintedOnceExactlyInThePointer() throws {
    let name = String(repeating: "m", count: 100_000)
    let capture = #"{"type":"ping","\#(name)":1}"# + "\n"
    let json = Self.validate(capture, ["--format", "json"])
    #expect(json.status == 0)
    let finding = try JSONReader().parse(String(json.out.split(separator: "\n")[0]))
    #expect(finding["code"]?.stringValue == "unexpected_field")
    #expect(finding["pointer"]?.stringValue == "/" + name)
    #expect(
      finding["message"]?.stringValue
        == "member \"\(String(repeating: "m", count: 60))…\" is not part of the protocol (kept, but ignored by peers)")
    #expect(json.out.utf8.count < capture.utf8.count + 1_000)
    let text = Self.validate(capture)
    #expect(text.out.utf8.count < 2_000)
  }

  /// A duplicated 100,000-character key: the parser's message quotes 60 characters of it.
  @Test func longDuplicateKeyIsQuotedShort() throws {
    let key = String(repeating: "k", count: 100_000)
    let capture = #"{"type":"ping","\#(key)":1,"\#(key)":2}"# + "\n"
    let json = Self.validate(capture, ["--format", "json"])
    #expect(json.status == 1)
    let finding = try JSONReader().parse(String(json.out.split(separator: "\n")[0]))
    #expect(finding["code"]?.stringValue == "duplicate_key")
    #expect(
      finding["message"]?.stringValue?.hasPrefix("duplicate key \"\(String(repeating: "k", count: 60))…\"") == true)
    #expect(json.out.utf8.count < 2_000)
  }

  /// A 100,000-character type is cut in JSON's `type` (64 characters) and in the message (60).
  @Test func longTypeIsCutInJSON() throws {
    let type = String(repeating: "T", count: 100_000)
    let json = Self.validate(#"{"type":"\#(type)"}"# + "\n", ["--format", "json"])
    let finding = try JSONReader().parse(String(json.out.split(separator: "\n")[0]))
    #expect(finding["code"]?.stringValue == "unknown_type")
    #expect(finding["type"]?.stringValue == String(repeating: "T", count: TerminalText.maxNameLength) + "…")
    #expect(finding["message"]?.stringValue == "unknown message type \"\(String(repeating: "T", count: 60))…\"")
    #expect(finding["pointer"]?.stringValue == "/type")
    #expect(json.out.utf8.count < 2_000)
  }

  /// Cutting happens after masking: a key 40 characters into a long type or member name is masked,
  /// never cut into a visible prefix of its hex digits.
  @Test func cutTextKeepsSecretsMasked() {
    let prefix = String(repeating: "A", count: 40)
    let tail = String(repeating: "z", count: 1_000)
    let capture =
      #"{"type":"\#(prefix + fakeKey + tail)"}"# + "\n" + #"{"type":"ping","\#(prefix + fakeKey + tail)":1}"# + "\n"
    for format in ["text", "json"] {
      let r = Self.validate(capture, ["--format", format])
      #expect(!r.out.contains("00112233"), "\(format)")
      #expect(!r.out.lowercased().contains("untethered"), "\(format)")
      #expect(r.out.contains(prefix + Redaction.mask), "\(format)")
    }
  }

  @Test func helpDocumentsTheCap() {
    let help = runCommand(["validate", "--help"]).out
    #expect(help.contains("--max-findings <count>"))
    #expect(help.contains("default 1000"))
    #expect(help.contains("'unlimited'"))
  }
}
