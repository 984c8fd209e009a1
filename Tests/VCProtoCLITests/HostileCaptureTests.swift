import Foundation
import Testing
import VCProto

@testable import VCProtoCLI
@testable import VCProtoCapture

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Captures crafted to attack the person running `vcproto validate`: terminal escapes in names,
/// tables that grow with the input, output that grows faster than the input.
@Suite(.tags(.slow), .enabled(if: slowSuitesRun)) struct HostileCaptureTests {
  /// Writes to the clipboard (OSC 52), returns the carriage, erases the line, moves up and prints a
  /// forged verdict; then a bidi override, an isolate, a C1 CSI and DEL in member names.
  static let osc52 = "\u{1B}]52;c;ZWNobyBwd25lZA==\u{07}"
  static let forgedType = "x" + osc52 + "\r\u{1B}[2K\u{1B}[1AOK clean.jsonl: 1 frame, 1 valid\n"
  static let injection: String = {
    let lines: [JSONValue] = [
      ["type": .string(forgedType)],
      ["type": "ping", "zz\u{202E}\u{2066}evil\u{1B}[31m": 1, "\u{9B}2J\u{7F}": 2, "tag\u{E0041}\u{200F}": 3],
    ]
    return lines.map(\.jsonText).joined(separator: "\n") + "\n"
  }()

  /// Whether a scalar could steer a terminal: a control (C0, DEL, C1), a format character (bidi
  /// controls, zero-width, tags) or a line/paragraph separator. Newline is the only one output may hold.
  static func steersTerminal(_ s: Unicode.Scalar) -> Bool {
    if s == "\n" { return false }
    if s.value < 0x20 || (0x7F...0x9F).contains(s.value) { return true }
    if (0x202A...0x202E).contains(s.value) || (0x2066...0x2069).contains(s.value) { return true }
    if [0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x061C, 0x2028, 0x2029, 0xFEFF].contains(s.value) { return true }
    return (0xE0000...0xE007F).contains(s.value)
  }

  @Test func textOutputEscapesEveryControlAndBidiCharacter() {
    let url = temporaryFile(Self.injection, name: "inject.jsonl")
    let r = runCommand(["validate", url.path])
    #expect(r.status == 0)
    let bad = r.out.unicodeScalars.filter(Self.steersTerminal)
    #expect(bad.isEmpty, "raw characters reached the terminal: \(bad.map { String($0.value, radix: 16) })")
    // The forged verdict is not a line of its own: exactly one line is a verdict, the real one.
    let verdicts = r.out.split(separator: "\n").filter { $0.hasPrefix("OK ") || $0.hasPrefix("FAIL ") }
    #expect(
      verdicts == [
        "OK \(url.path): 2 frames, 2 valid, 0 invalid; 0 errors, 4 warnings;"
          + " protocol 0.5.0 (assumed default: no handshake, no --protocol)"
      ])
    // Each character is shown as a visible escape.
    #expect(r.out.contains(#"x\u{1B}]52;c;ZWNobyBwd25lZA==\u{07}\u{0D}\u{1B}[2K"#))
    #expect(r.out.contains(#"ping /zz\u{202E}\u{2066}evil\u{1B}[31m: warning:"#))
    #expect(r.out.contains(#"ping /\u{9B}2J\u{7F}: warning:"#))
    #expect(r.out.contains(#"ping /tag\u{E0041}\u{200F}: warning:"#))
  }

  @Test func decodeEscapesItsFindingsToo() {
    let url = temporaryFile(#"{"type":"ping","a\u001b]52;c;eA==\u0007":1,"\u202e":2}"#, name: "f.json")
    let r = runCommand(["decode", "--strict", url.path])
    #expect(r.status == 1)
    #expect(r.err.unicodeScalars.filter(Self.steersTerminal).isEmpty)
    #expect(r.err.contains(#"/a\u{1B}]52;c;eA==\u{07}: error:"#))
  }

  @Test func decodeOutputWritesNoRawControl() throws {
    let frame = #"{"type":"ping","x\u009b":"\u001b]52;c;eA==\u0007\u009b31m\u202e\u2028"}"#
    let r = runCommand(["decode", temporaryFile(frame, name: "p.json").path])
    #expect(r.status == 0)
    #expect(r.out.unicodeScalars.filter(Self.steersTerminal).isEmpty, "\(r.out)")
    // The printed JSON still reads back to the same value, and keeps its layout.
    #expect(try JSONReader().parse(r.out) == JSONReader().parse(frame))
    #expect(r.out.hasPrefix("{\n  \"type\": \"ping\",\n"))
  }

  @Test func jsonOutputStaysExactButWritesNoRawControl() throws {
    let url = temporaryFile(Self.injection, name: "inject.jsonl")
    let r = runCommand(["validate", "--format", "json", url.path])
    #expect(r.out.unicodeScalars.filter(Self.steersTerminal).isEmpty)
    let lines = try r.out.split(separator: "\n").map { try JSONReader().parse(String($0)) }
    // The type is cut at 64 scalars like in text output (JSON's `type` may quote the capture); the
    // pointers are exact.
    #expect(Self.forgedType.unicodeScalars.count > TerminalText.maxNameLength)
    #expect(
      lines[0]["type"]?.stringValue
        == String(String.UnicodeScalarView(Self.forgedType.unicodeScalars.prefix(TerminalText.maxNameLength))) + "…")
    #expect(
      Set(lines.dropFirst().dropLast().compactMap { $0["pointer"]?.stringValue }) == [
        "/zz\u{202E}\u{2066}evil\u{1B}[31m", "/\u{9B}2J\u{7F}", "/tag\u{E0041}\u{200F}",
      ])
  }

  /// RFC 6901: `""` is the whole document, `/` the member named "". Text output keeps them apart.
  @Test func rootPointerIsShownAsRoot() throws {
    let url = temporaryFile("[1]\n{\"type\":\"ping\",\"\":1}\n", name: "root.jsonl")
    let text = runCommand(["validate", url.path]).out
    #expect(text.contains("\(url.path):1: - (root): error:"))
    #expect(text.contains("\(url.path):2: ping /: warning:"))
    let json = runCommand(["validate", "--format", "json", url.path]).out.split(separator: "\n")
    #expect(try JSONReader().parse(String(json[0]))["pointer"]?.stringValue == "")
    #expect(try JSONReader().parse(String(json[1]))["pointer"]?.stringValue == "/")
  }

  @Test func longNamesAreTruncatedInText() {
    let type = String(repeating: "T", count: 100_000)
    let member = String(repeating: "m", count: 100_000)
    let url = temporaryFile(
      #"{"type":"\#(type)"}"# + "\n" + #"{"type":"ping","\#(member)":1}"# + "\n", name: "long.jsonl")
    let r = runCommand(["validate", url.path])
    for line in r.out.split(separator: "\n") {
      #expect(line.count < 800, "line of \(line.count) characters")
    }
    #expect(r.out.contains(String(repeating: "T", count: TerminalText.maxNameLength) + "… /type"))
    #expect(r.out.contains("ping /" + String(repeating: "m", count: TerminalText.maxPointerLength - 1) + "…: warning"))
  }

  /// A 1 MB type among many short ones used to pad every summary row to 1 MB (2 GB of output for a
  /// 1 MB capture). Output is now proportionate to the input.
  @Test func outputIsProportionateToInput() {
    var capture = #"{"type":"\#(String(repeating: "L", count: 1_000_000))"}"# + "\n"
    for i in 0..<2_000 { capture += #"{"type":"t\#(i)"}"# + "\n" }
    let url = temporaryFile(capture, name: "pad.jsonl")
    let r = runCommand(["validate", url.path])
    #expect(r.status == 0)
    #expect(r.out.utf8.count < capture.utf8.count / 2, "output \(r.out.utf8.count) bytes for \(capture.utf8.count)")
    #expect(r.out.contains("(1937 other types)"))
  }

  /// A HAR whose messages key is written with escapes used to have its frames skipped (and validate
  /// OK): readers compare decoded member names, as any JSON reader would.
  @Test(arguments: [#"_webSocket\u004dessages"#, #"\u005fwebSocketMessages"#, #"_web\u0053ocket\u004Dessages"#])
  func harKeyWrittenWithEscapesIsRead(key: String) {
    let frame = #"{\"type\":\"set_max_message_size\",\"size_kb\":0}"#
    let har = #"{"log":{"entries":[{"\#(key)":[{"type":"send","time":1,"opcode":1,"data":"\#(frame)"}]}]}}"#
    let r = runCommand(["validate", temporaryFile(har, name: "x.har").path])
    #expect(r.status == 1, "\(r.out)")
    #expect(r.out.contains("#0: set_max_message_size /size_kb: error:"))
    // Detected as a HAR from its content too (standard input has no name), the first key decoded.
    let escapedLog = har.replacingOccurrences(of: #"{"log""#, with: #"{"l\u006fg""#)
    let piped = runCommand(["validate", "-"], stdin: escapedLog)
    #expect(piped.out.contains("<stdin>#0: set_max_message_size /size_kb: error:"), "\(piped.out)")
  }

  @Test func harKeyThatDecodesToAnotherNameIsNotRead() {
    let har = #"{"log":{"entries":[{"_webSocket\u004eessages":[{"type":"send","data":"{}"}]}]}}"#
    let r = runCommand(["validate", temporaryFile(har, name: "x.har").path])
    #expect(r.out.contains("[no_frames]"))
  }

  @Test func jsonLinesRecordWithEscapedDataKeyIsARecord() {
    let line = #"{"direction":"client_to_server","d\u0061ta":"{\"type\":\"set_max_message_size\",\"size_kb\":0}"}"#
    let r = runCommand(["validate", temporaryFile(line + "\n", name: "r.jsonl").path])
    #expect(r.out.contains(":1: set_max_message_size /size_kb: error:"), "\(r.out)")
  }

  /// `decode` used to print a key-shaped member name (stdout) and type (stderr).
  @Test func decodeMasksKeyShapedNamesAndTypes() {
    let key = "untethered-00112233445566778899aabbccddeeff"
    let member = runCommand(["decode", temporaryFile(#"{"type":"ping","\#(key)":1}"#, name: "m.json").path])
    #expect(member.status == 0)
    #expect(!member.out.contains("0011223344") && !member.err.contains("0011223344"), "\(member)")
    #expect(member.out.contains("«redacted»"))
    let type = runCommand(["decode", temporaryFile(#"{"type":"\#(key)"}"#, name: "t.json").path])
    #expect(!type.out.contains("0011223344") && !type.err.contains("0011223344"), "\(type)")
    let escaped = runCommand(
      [
        "decode",
        temporaryFile(
          #"{"type":"connect","api_key":"untethered-00\u00312233445566778899aabbccddeeff"}"#, name: "c.json"
        ).path,
      ])
    #expect(!escaped.out.contains("2233445566") && !escaped.err.contains("2233445566"), "\(escaped)")
  }

  @Test func summaryTableIsBounded() {
    var summary = ValidationSummary()
    func frame(_ type: String?) -> FrameOutcome {
      FrameOutcome(
        position: .line(1), direction: nil, messageType: type,
        findings: [Finding(.warning, .unknownType, pointer: "/type", message: "m")], message: nil, envelope: nil,
        time: nil, connection: 0, isFrame: true)
    }
    for i in 0..<70_000 { summary.add(frame("junk\(i)")) }
    summary.add(frame("ping"))
    summary.add(frame(nil))
    summary.add(frame(String(repeating: "x", count: 65)))
    // 64 unknown types get rows; catalog types and untyped frames always do.
    #expect(summary.types.count == ValidationSummary.maxListedOtherTypes + 2)
    #expect(summary.types["ping"]?.frames == 1)
    #expect(summary.types[ValidationSummary.untyped]?.frames == 1)
    #expect(summary.types["junk63"] != nil && summary.types["junk64"] == nil)
    #expect(summary.otherTypes.counts.frames == 70_000 - 64 + 1)
    #expect(summary.otherTypes.distinct.count == ValidationSummary.maxCountedOtherTypes)
    #expect(summary.otherTypes.distinctOverflow)
    #expect(summary.frames == 70_003)
    let other = summary.json["other_types"]
    #expect(other?["types_exact"] == .bool(false))
    #expect(other?["frames"]?.intValue == 69_937)
  }

  @Test func messageIDsAreRememberedAsBoundedHashes() {
    var memory = MessageIDMemory(capacity: 3)
    for id in ["a", "b", "c", "b"] { memory.insert(id) }
    #expect(memory.count == 3)
    memory.insert(String(repeating: "d", count: 1_000_000))
    // First in, first out: "a" is forgotten, the rest kept.
    #expect(!memory.contains("a"))
    #expect(memory.contains("b") && memory.contains("c"))
    #expect(memory.contains(String(repeating: "d", count: 1_000_000)))
    #expect(memory.count == 3)
  }

  /// Capture times become the observer's milliseconds only when 64 bits hold them: a hostile
  /// `time` (1e300, infinity, NaN) is dropped instead of trapping.
  @Test func captureTimesOutOfRangeAreDropped() {
    #expect(CaptureValidation.milliseconds(1.5) == 1_500)
    #expect(CaptureValidation.milliseconds(-2) == -2_000)
    #expect(CaptureValidation.milliseconds(1e300) == nil)
    #expect(CaptureValidation.milliseconds(-.infinity) == nil)
    #expect(CaptureValidation.milliseconds(.nan) == nil)
  }

  /// The conversation observer still reports an ack for an id it has forgotten (beyond the window),
  /// and accepts one inside it.
  @Test func ackWindowFollowsEviction() throws {
    var observer = ConversationObserver(fallbackVersion: .v0_2_0)
    func event(_ direction: MessageDirection, _ json: String) throws -> ConversationObserver.Frame {
      ConversationObserver.Frame(direction: direction, message: try #require(JSONReader().parse(json).objectValue))
    }
    _ = observer.observe(try event(.serverToClient, #"{"type":"hello","version":"0.2.0","auth_version":1}"#))
    _ = observer.observe(try event(.clientToServer, #"{"type":"connect","api_key":"k"}"#))
    for i in 0...ConversationObserver.rememberedMessageIDs {
      _ = observer.observe(try event(.serverToClient, #"{"type":"pong","message_id":"id-\#(i)"}"#))
    }
    let old = observer.observe(try event(.clientToServer, #"{"type":"message_ack","message_id":"id-0"}"#))
    #expect(old.map(\.code) == [.unknownMessageID])
    let recent = observer.observe(try event(.clientToServer, #"{"type":"message_ack","message_id":"id-1"}"#))
    #expect(recent.isEmpty)
  }

  /// End to end in a child `vcproto`: 20 distinct 2 MB types and 20 distinct 2 MB message ids (80 MB
  /// in all) used to be kept whole (over 100 MB peak). The child's peak RSS must stay under 64 MB.
  @Test func memoryStaysUnder64MB() throws {
    let binary = try #require(EndToEndTests.binary, "the vcproto executable was not found; set VCPROTO_BINARY")
    var capture = [
      #"{"direction":"server_to_client","data":"{\"type\":\"hello\",\"message\":\"m\",\"version\":\"0.2.0\",\"auth_version\":1,\"instructions\":\"i\"}"}"#,
      #"{"direction":"client_to_server","data":"{\"type\":\"connect\",\"api_key\":\"k\"}"}"#,
    ].joined(separator: "\n")
    let big = String(repeating: "t", count: 2_000_000)
    for i in 0..<20 { capture += "\n" + #"{"type":"\#(i)\#(big)"}"# }
    for i in 0..<20 { capture += "\n" + #"{"type":"pong","message_id":"\#(i)\#(big)"}"# }
    capture += "\n"
    let url = temporaryFile(capture, name: "big.jsonl")
    let (status, output, peak) = try runMeasured(binary.path, ["validate", url.path])
    let size = output.utf8.count
    let hasOtherRow = output.contains("(20 other types)")
    #expect(status == 0, "\(output.prefix(2000))")
    #expect(size < 64 * 1024, "output \(size) bytes")
    #expect(hasOtherRow)
    #if os(Linux)
      let bytes = try #require(peak, "VmHWM was not readable")
      #expect(bytes > 1024 * 1024 && bytes < 64 * 1024 * 1024, "peak RSS \(bytes / 1024 / 1024) MB")
    #endif
  }
}

/// Runs `path` with `arguments`, standard output to a temporary file; returns the exit status, the
/// output and the child's peak resident set size in bytes (`nil` where it cannot be read).
///
/// The peak is the kernel's VmHWM for the child's address space, read from /proc/<pid>/status every
/// 2 ms while it runs. (`wait4`'s `ru_maxrss` would not do: a child started by `posix_spawn` shares
/// this large test process's memory until it executes, and the kernel counts that in its maximum.)
/// The last 2 ms before exit can be missed, so the figure is a lower bound that is exact unless the
/// peak falls in them.
func runMeasured(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String, peakRSS: Int?) {
  let out = temporaryFile("", name: "out")
  #if os(Linux)
    var actions = posix_spawn_file_actions_t()
  #else
    var actions: posix_spawn_file_actions_t?
  #endif
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, out.path, O_WRONLY | O_TRUNC, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
  defer { for p in argv { free(p) } }
  var pid: pid_t = 0
  let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
  try #require(spawned == 0, "posix_spawn failed: \(spawned)")
  var status: Int32 = 0
  var peak: Int?
  while true {
    let done = waitpid(pid, &status, WNOHANG)
    if done == pid { break }
    if done < 0 {
      try #require(errno == EINTR, "waitpid failed: \(errno)")
      continue
    }
    if let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kilobytes = line.split(separator: " ").compactMap({ Int($0) }).first
    {
      peak = max(peak ?? 0, kilobytes * 1024)
    }
    usleep(2_000)
  }
  let output = try String(contentsOf: out, encoding: .utf8)
  return ((status >> 8) & 0xFF, output, peak)
}
