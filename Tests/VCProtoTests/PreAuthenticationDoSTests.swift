import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Denial of service before authentication (issue 14): work linear in the frame, memory bounded per
/// frame, findings and log records capped, handshake lists bounded, one duplicate-key rule. Work and
/// memory are measured by counting (``JSONParseStats``), never by timing.
@Suite(.tags(.slow), .enabled(if: slowSuitesRun)) struct PreAuthenticationDoSTests {
  /// `{"type":<type>,<fixed>"x0":0,"x1":0,...}` with `count` undeclared members.
  func frame(_ type: String, fixed: String = "", undeclared count: Int) -> [UInt8] {
    var text = "{\"type\":\"\(type)\"," + fixed
    for i in 0..<count { text += "\"x\(i)\":0," }
    text.removeLast()
    return Array((text + "}").utf8)
  }

  let connectFixed = #""api_key":"untethered-0011223344556677889900aabbccddeeff","#

  // MARK: 1. Linear work

  @Test func treeParserDuplicateChecksAreLinear() {
    let reader = JSONReader()
    var checks: [Int] = []
    for n in [10_000, 20_000, 40_000] {
      let (result, stats) = reader.parseCountingWork(frame("connect", fixed: connectFixed, undeclared: n))
      #expect((try? result.get()) != nil)
      checks.append(stats.keyChecks)
    }
    // Doubling the members doubles the checks (plus a constant for the first few); quadratic work
    // would quadruple them. The old code compared or copied about n²/2 names.
    #expect(checks[1] <= checks[0] * 2 + 300)
    #expect(checks[2] <= checks[1] * 2 + 300)
    #expect(checks[2] < 2 * 40_000)
  }

  @Test func directPathUndeclaredMemberChecksAreLinear() {
    let decoder = MessageDecoder(options: ValidationOptions(version: .v0_2_0))
    var checks: [Int] = []
    for n in [10_000, 20_000, 40_000] {
      var stats = JSONParseStats()
      let message = decoder.directBuild(frame("ping", undeclared: n), stats: &stats)
      guard case .client(.ping(let ping))? = message else {
        Issue.record("the direct path did not decode a ping with \(n) undeclared members")
        return
      }
      #expect(ping.additionalMembers.count == n)
      checks.append(stats.keyChecks)
    }
    #expect(checks[1] <= checks[0] * 2 + 300)
    #expect(checks[2] <= checks[1] * 2 + 300)
  }

  @Test func claudeRecordMemberChecksAreLinear() {
    let id = "1f0e2d3c-4b5a-4968-8776-655443322110"
    let session = "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11"
    func history(_ n: Int) -> [UInt8] {
      var record =
        #"{"type":"user","uuid":"\#(id)","parentUuid":null,"timestamp":"2026-01-11T17:20:01.512Z","#
        + #""sessionId":"\#(session)","cwd":"/x","isSidechain":false,"message":{"role":"user","content":"hi"}"#
      for i in 0..<n { record += ",\"y\(i)\":1" }
      record += "}"
      return Array(
        (#"{"type":"session_history","session_id":"\#(session)","messages":[\#(record)],"total_count":1,"#
          + #""oldest_message_id":"\#(id)","newest_message_id":"\#(id)","is_complete":true}"#).utf8)
    }
    let decoder = MessageDecoder(options: ValidationOptions(version: .v0_2_0))
    var checks: [Int] = []
    for n in [10_000, 20_000] {
      var stats = JSONParseStats()
      #expect(decoder.directBuild(history(n), stats: &stats) != nil, "decoded on the direct path")
      checks.append(stats.keyChecks)
    }
    #expect(checks[1] <= checks[0] * 2 + 300)
  }

  @Test func largeObjectsStillRejectDuplicates() {
    // The duplicate comes after the switch from comparisons to the hash set, on both paths.
    var bytes = frame("ping", undeclared: 5_000)
    bytes.removeLast()
    bytes += Array(",\"x4321\":1}".utf8)
    let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(bytes)
    #expect(report.findings.map(\.code) == [.duplicateKey])
    #expect(report.findings.first?.message.contains("x4321") == true)
    var stats = JSONParseStats()
    #expect(MessageDecoder(options: ValidationOptions(version: .v0_2_0)).directBuild(bytes, stats: &stats) == nil)
    #expect(throws: DecodingFailure.self) {
      try MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decode(bytes)
    }
  }

  // MARK: 2. Memory

  /// Bytes the tree takes, from the counts: every slot reserved, plus each non-empty container's
  /// allocation (a 32-byte array header and up to 16 bytes of allocator overhead). Short strings and
  /// number literals are stored inline in their slot.
  func treeBytes(_ stats: JSONParseStats) -> Int {
    stats.reservedElements * MemoryLayout<JSONValue>.stride
      + stats.reservedMembers * MemoryLayout<JSONObject.Member>.stride + stats.containers * 48
  }

  /// Bytes the parse's stacks of open containers took at their largest (two allocations).
  func stackBytes(_ stats: JSONParseStats) -> Int {
    stats.stackElements * MemoryLayout<JSONValue>.stride + stats.stackMembers * MemoryLayout<JSONObject.Member>.stride
      + 2 * 48
  }

  @Test(arguments: [
    ("[", "{}", ",", "]"),  // 15 MB of these took 1.96 GB: each {} reserved 8 members
    ("[", "[0]", ",", "]"),
    ("[", "[[[[0]]]]", ",", "]"),
    ("[", String(repeating: "[", count: 40) + "0" + String(repeating: "]", count: 40), ",", "]"),  // the worst: 35 : 1
    ("[", "{\"\":{\"\":0}}", ",", "]"),
    ("[", "0", ",", "]"),
    ("[", "\"\"", ",", "]"),
    ("[", "[]", ",", "]"),
  ])
  func treeMemoryIsASmallMultipleOfTheFrame(_ shape: (String, String, String, String)) throws {
    // Just past a power of two: the shared stack then has nearly half its capacity spare (its worst).
    let count = 16_385
    let text = shape.0 + Array(repeating: shape.1, count: count).joined(separator: shape.2) + shape.3
    let bytes = Array(text.utf8)
    let (result, stats) = JSONReader().parseCountingWork(bytes)
    _ = try result.get()
    // No spare capacity: an array holds exactly its elements (an empty one reserves nothing); the
    // allocator may round a small allocation up by a slot, and the one large (outer) array up to a page.
    let reserved = stats.reservedElements + stats.reservedMembers
    #expect(reserved <= stats.values - 1 + stats.containers + 4096 / MemoryLayout<JSONValue>.stride)
    #expect(reserved >= stats.values - 1)
    // STANDARDS.md#limits: the tree and the parse's stacks take at most 40 bytes per byte of frame.
    let total = treeBytes(stats) + stackBytes(stats)
    #expect(total <= 40 * bytes.count, "\(total) bytes for \(bytes.count)")
  }

  @Test func valueLimitIsCheckedWhileParsing() {
    let limits = JSONLimits(maxValues: 1000)
    let options = ValidationOptions(version: .v0_2_0, limits: limits)
    // 1 frame + 1 type + 998 members = 1000 values, at the limit; one member more is over it.
    for (members, expected) in [(998, [FindingCode]()), (999, [.tooManyValues])] {
      let bytes = frame("ping", undeclared: members)
      let report = Validator(options: options).validate(bytes)
      #expect(report.findings.filter { $0.severity == .error }.map(\.code) == expected, "\(members) members")
      if let finding = report.findings.first(where: { $0.code == .tooManyValues }) {
        #expect(finding.message.contains("maxValues") && finding.message.contains("1000"))
      }
      // The direct path counts the same values: it never accepts what the tree refuses.
      let decoded = try? MessageDecoder(options: options).decode(bytes)
      #expect((decoded != nil) == expected.isEmpty)
    }
    // Elements count too, at any depth.
    let nested = Array(("[" + Array(repeating: "[0,0]", count: 333).joined(separator: ",") + "]").utf8)
    #expect(Validator(options: options).validate(nested).findings.map(\.code) == [.notAnObject])
    let over = Array(("[" + Array(repeating: "[0,0]", count: 334).joined(separator: ",") + "]").utf8)
    #expect(Validator(options: options).validate(over).findings.map(\.code) == [.tooManyValues])
  }

  @Test func fifteenMegabytesOfEmptyObjectsStopAtTheValueLimit() {
    // The review's frame: 15 MB of {} (5 million values) took 1.96 GB in validate, 3.9 GB in decode.
    let bytes = Array(("[" + Array(repeating: "{}", count: 5_000_000).joined(separator: ",") + "]").utf8)
    let before = peakResidentBytes()
    let (result, stats) = JSONReader().parseCountingWork(bytes)
    #expect(throws: JSONReadError.self) { try result.get() }
    #expect(stats.values == JSONLimits.default.maxValues + 1)
    #expect(
      Validator(options: ValidationOptions(version: .v0_2_0)).validate(bytes).findings.map(\.code) == [.tooManyValues])
    #expect(throws: DecodingFailure.self) {
      try MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decode(bytes)
    }
    // Sanity check on the whole process (other tests run alongside, so the bound is loose): the
    // peak grew by far less than the gigabytes the review measured.
    #expect(peakResidentBytes() - before < 600 << 20)
  }

  @Test func aSmallEnvelopeOfEmptyObjectsStopsAtTheValueLimit() throws {
    // The review's envelope: tens of kilobytes, under the ratio cap, inflating to 15 MB of {}.
    let inner = Array(("[" + Array(repeating: "{}", count: 5_000_000).joined(separator: ",") + "]").utf8)
    let codec = EnvelopeCodec(configuration: EnvelopeConfiguration(level: 1))
    let sealed = try #require(try codec.seal(inner, form: .binary))
    #expect(sealed.count < 200_000)
    #expect(sealed.count * codec.limits.maxCompressionRatio > inner.count, "under the ratio cap")
    let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(
      envelopedFrame: .binary(sealed), codec: codec)
    #expect(report.findings.map(\.code) == [.tooManyValues])
  }

  // MARK: 3. Findings and log records

  @Test func findingsAreCappedWithACountOfTheRest() {
    // 900,000 nulls where session summaries are required: one finding each before the cap.
    let nulls = Array(repeating: "null", count: 900_000).joined(separator: ",")
    let bytes = Array(#"{"type":"session_list","sessions":[\#(nulls)],"total_count":900000}"#.utf8)
    let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(bytes)
    #expect(report.findings.count == 101)
    #expect(report.findings.dropLast().allSatisfy { $0.code == .nullNotAllowed })
    let last = report.findings.last
    #expect(last?.code == .findingsSuppressed)
    #expect(last?.severity == .error)
    #expect(last?.message.contains("899900 more findings") == true)
    #expect(last?.message.contains("maxFindings") == true)
    #expect(!report.isValid)
  }

  @Test func aSuppressedErrorKeepsTheVerdict() throws {
    // 150 warnings (undeclared members), then an error past the cap (the rule across members is
    // checked after the members): the summary is an error.
    var text = #"{"type":"prompt","text":"hi","new_session_id":"a","resume_session_id":"b""#
    for i in 0..<150 { text += ",\"x\(i)\":0" }
    text += "}"
    let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(text)
    #expect(report.findings.count == 101)
    #expect(report.findings.last?.code == .findingsSuppressed)
    #expect(report.findings.last?.severity == .error)
    #expect(report.findings.last?.message.contains("51 more findings suppressed (1 errors, 50 warnings)") == true)
    #expect(!report.isValid)
    #expect(throws: DecodingFailure.self) {
      try MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decode(text)
    }
    // Only warnings suppressed: a warning summary, and the frame still decodes.
    let warnings = frame("ping", undeclared: 150)
    let clean = Validator(options: ValidationOptions(version: .v0_2_0)).validate(warnings)
    #expect(clean.findings.last?.severity == .warning)
    #expect(clean.isValid)
    #expect(try MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decode(warnings).type == "ping")
    // A lower cap, and strict mode (every suppressed warning is then an error).
    let strict = Validator(options: ValidationOptions(version: .v0_2_0, strict: true, maxFindings: 3)).validate(
      warnings)
    #expect(strict.findings.count == 4)
    #expect(strict.findings.last?.severity == .error)
    #expect(strict.findings.last?.message.contains("147 more findings suppressed (147 errors, 0 warnings)") == true)
  }

  @Test func loggerRecordsPerFrameAreCapped() {
    let records = Records()
    let logger = ProtocolLogger(minimumLevel: .debug) { records.append($0) }
    let nulls = Array(repeating: "null", count: 10_000).joined(separator: ",")
    _ = Validator(options: ValidationOptions(version: .v0_2_0), logger: logger).validate(
      #"{"type":"session_list","sessions":[\#(nulls)]}"#)
    let logged = records.all
    #expect(logged.count == 21)
    #expect(logged.last?.code == .findingsSuppressed)
    #expect(logged.last?.message.contains("81 more log records") == true)
    // Per frame: the next frame gets its own allowance.
    _ = Validator(options: ValidationOptions(version: .v0_2_0), logger: logger).validate(#"{"type":"ping","a":1}"#)
    #expect(records.all.count == 22)
  }

  // MARK: 4. Handshake lists

  @Test func handshakeListsAreBounded() throws {
    func connect(_ versions: Int, _ capabilities: Int) -> String {
      let v = (0..<versions).map { "\"0.\($0).0\"" }.joined(separator: ",")
      let c = (0..<capabilities).map { "\"cap\($0)\"" }.joined(separator: ",")
      return #"{"type":"connect","api_key":"untethered-0011223344556677889900aabbccddeeff","#
        + #""protocol_versions":[\#(v)],"capabilities":[\#(c)]}"#
    }
    #expect(try MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decode(connect(64, 64)).type == "connect")
    let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(connect(100_000, 100_000))
    #expect(report.findings.map(\.code) == [.handshakeListTooLong, .handshakeListTooLong])
    #expect(report.findings.map(\.pointer) == ["/protocol_versions", "/capabilities"])
    #expect(report.findings.first?.message.contains("maxHandshakeListItems") == true)
    #expect(throws: DecodingFailure.self) {
      try MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decodeClientMessage(Array(connect(65, 0).utf8))
    }
    // The server's lists too.
    let hello =
      #"{"type":"hello","message":"Welcome to voice-code backend","version":"0.2.0","auth_version":1,"#
      + #""instructions":"Send connect message with api_key","auth_versions":[\#((0..<65).map { _ in "1" }.joined(separator: ","))]}"#
    #expect(
      Validator(options: ValidationOptions(version: .v0_2_0)).validate(hello).findings.map(\.pointer) == [
        "/auth_versions"
      ])
    #expect(throws: DecodingFailure.self) {
      try MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decodeServerMessage(Array(hello.utf8))
    }
  }

  // MARK: 5. One duplicate-key rule

  /// `é` precomposed (U+00E9) and decomposed (`e` U+0301): canonically equivalent, different scalars.
  let precomposed = "\u{E9}"
  let decomposed = "e\u{301}"

  @Test(arguments: [3, 22, 5_000])
  func canonicallyEquivalentKeysAreDistinctAtEverySize(_ members: Int) throws {
    // `members` members in all: type, the two names, and padding.
    var text = #"{"type":"ping","\#(precomposed)":1,"\#(decomposed)":2"#
    for i in 0..<(members - 3) { text += ",\"p\(i)\":0" }
    text += "}"
    let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(text)
    #expect(!report.findings.contains { $0.code == .duplicateKey })
    #expect(report.findings.filter { $0.code == .unexpectedField }.count == min(members - 1, 100))
    let message = try MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decode(text)
    guard case .client(.ping(let ping)) = message else { throw Failure("not a ping") }
    #expect(ping.additionalMembers[precomposed] == .number(JSONNumber(uncheckedLiteral: "1")))
    #expect(ping.additionalMembers[decomposed] == .number(JSONNumber(uncheckedLiteral: "2")))
    // Reordered combining marks: same length, canonically equivalent, still two keys.
    let marks = #"{"type":"ping","e\u0301\u0327":1,"e\u0327\u0301":2}"#
    #expect(
      !Validator(options: ValidationOptions(version: .v0_2_0)).validate(marks).findings.contains {
        $0.code == .duplicateKey
      })
  }

  @Test(arguments: [3, 22, 5_000])
  func sameScalarsAreDuplicatesAtEverySize(_ members: Int) {
    // The second name is the first one escaped: the same scalars once unescaped.
    var text = #"{"type":"ping","\#(precomposed)":1"#
    for i in 0..<(members - 3) { text += ",\"p\(i)\":0" }
    text += #","\u00e9":2}"#
    #expect(
      Validator(options: ValidationOptions(version: .v0_2_0)).validate(text).findings.map(\.code) == [.duplicateKey])
    #expect(throws: DecodingFailure.self) {
      try MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decode(text)
    }
  }

  @Test func documentedInStandards() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let standards = try String(contentsOf: root.appendingPathComponent("STANDARDS.md"), encoding: .utf8)
    for needle in [
      "too_many_values", "1,000,000 values", "findings_suppressed", "handshake_list_too_long",
      "sequence of Unicode scalars",
    ] {
      #expect(standards.contains(needle), "STANDARDS.md mentions \(needle)")
    }
    // The memory figure is vcproto's, not the protocol's: the DocC article on the implementation.
    let notes = try String(
      contentsOf: root.appendingPathComponent("Sources/VCProto/VCProto.docc/ImplementationNotes.md"), encoding: .utf8)
    #expect(notes.contains("at most 40 bytes per byte of frame"))
  }
}

/// Log records collected from a sink (which may be called from any thread).
final class Records: @unchecked Sendable {
  private let lock = NSLock()
  private var records: [LogRecord] = []

  func append(_ record: LogRecord) {
    lock.lock()
    records.append(record)
    lock.unlock()
  }

  var all: [LogRecord] {
    lock.lock()
    defer { lock.unlock() }
    return records
  }
}

struct Failure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// The process's peak resident set size, in bytes (`getrusage`; kilobytes on Linux).
func peakResidentBytes() -> Int {
  var usage = rusage()
  #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
  #else
    getrusage(RUSAGE_SELF, &usage)
    return usage.ru_maxrss
  #endif
}
