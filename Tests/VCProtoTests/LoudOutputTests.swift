import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// A hostile peer's long names must not come back whole in what a library user logs: a finding's
/// type and description, a log record, an error's text. Each frame here puts a megabyte where the
/// protocol has a short name; the bounds asserted are the ones the doc comments state
/// (``Finding/maxMessageTypeLength`` 64, ``Finding/maxDescribedPointerLength`` 160, quotes of 60
/// Unicode scalars then `…`, STANDARDS.md#findings), never sizes read off the output.
@Suite struct LoudOutputTests {
  static let megabyte = 1_000_000
  /// One letter and then combining marks: a single `Character` of about 1 MB.
  static let oneGrapheme = "a" + String(repeating: "\u{301}", count: 500_000)

  static func frame(_ members: [(String, JSONValue)]) -> String {
    JSONValue.object(JSONObject(members.map { JSONObject.Member(key: $0.0, value: $0.1) })).jsonText
  }

  static func scalars(_ text: String?) -> Int { text?.unicodeScalars.count ?? 0 }

  /// The cut mark the doc comments give: `…`, then the length in UTF-8 bytes.
  static func mark(_ bytes: Int) -> String { "… (\(bytes) bytes)" }

  @Test func aMegabyteTypeIsCutInTheFindingAndMarkedWithItsLength() throws {
    let type = String(repeating: "T", count: Self.megabyte)
    let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(Self.frame([("type", .string(type))]))
    let finding = try #require(report.findings.first)
    #expect(finding.code == .unknownType)
    let shown = try #require(finding.messageType)
    #expect(Self.scalars(shown) <= Finding.maxMessageTypeLength)
    #expect(shown.hasSuffix(Self.mark(Self.megabyte)))
    #expect(shown.hasPrefix("TTTTTTTTTT"))
    // The report keeps the frame's type whole (documented), like its value.
    #expect(report.messageType == type)
    // The message quotes 60 characters then `…`; the description stays small.
    #expect(finding.message == "unknown message type \"\(String(repeating: "T", count: 60))…\"")
    #expect(finding.description.utf8.count < 400)
  }

  @Test func cuttingAShownTypeAgainChangesNothing() throws {
    let type = String(repeating: "T", count: Self.megabyte)
    let finding = Finding(.warning, .unknownType, pointer: "/type", messageType: type, message: "m")
    #expect(finding.with(severity: .error).messageType == finding.messageType)
    let decoded = try JSONDecoder().decode(Finding.self, from: JSONEncoder().encode(finding))
    #expect(decoded == finding)
    // Exactly at the limit nothing is cut; one scalar more is.
    let exact = String(repeating: "t", count: Finding.maxMessageTypeLength)
    #expect(Finding(.warning, .unknownType, pointer: "", messageType: exact, message: "m").messageType == exact)
    let over = Finding(.warning, .unknownType, pointer: "", messageType: exact + "t", message: "m").messageType
    #expect(over == String(repeating: "t", count: 64 - Self.mark(65).count) + Self.mark(65))
  }

  @Test func everyCatalogTypeFitsUncut() {
    for catalog in ProtocolCatalog.all {
      for message in catalog.messages {
        #expect(Self.scalars(message.type) <= Finding.maxMessageTypeLength, "\(message.type)")
      }
    }
  }

  @Test func aTypeOfOneHugeGraphemeIsCutInScalars() throws {
    let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(
      Self.frame([("type", .string(Self.oneGrapheme))]))
    let finding = try #require(report.findings.first)
    // Quotes count Unicode scalars (60, then `…`), not Characters (this type is one Character).
    #expect(Self.scalars(finding.message) <= "unknown message type \"\"".count + 61)
    #expect(Self.scalars(finding.messageType) <= Finding.maxMessageTypeLength)
  }

  @Test func aMegabyteMemberNameStaysExactInThePointerButNotInTheDescription() throws {
    let name = String(repeating: "M", count: Self.megabyte)
    let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(
      Self.frame([("type", "ping"), (name, 1)]))
    let finding = try #require(report.findings.first { $0.code == .unexpectedField })
    #expect(finding.pointer == "/" + name)
    #expect(finding.description.hasPrefix("warning unexpected_field /MMMM"))
    #expect(finding.description.contains(Self.mark(Self.megabyte + 1) + ": member \"MMMM"))
    #expect(finding.description.utf8.count < 400)
  }

  @Test(.tags(.slow), .enabled(if: slowSuitesRun)) func theLoggerCutsPointersAndTypesOfEveryRecord() throws {
    let sink = RecordingSink()
    let validator = Validator(options: ValidationOptions(version: .v0_2_0), logger: sink.logger(.debug))
    // Ten megabyte names, one unknown megabyte type in another frame.
    let members: [(String, JSONValue)] =
      [("type", "ping")] + (0..<10).map { (String(repeating: "\(UnicodeScalar(65 + $0)!)", count: Self.megabyte), 1) }
    _ = validator.validate(Self.frame(members))
    _ = validator.validate(Self.frame([("type", .string(String(repeating: "T", count: Self.megabyte)))]))
    let records = sink.records
    #expect(records.count == 11)
    for record in records {
      #expect(Self.scalars(record.pointer) <= Finding.maxDescribedPointerLength)
      #expect(Self.scalars(record.messageType) <= Finding.maxMessageTypeLength)
      #expect(record.message.utf8.count < 600, "\(record.message.prefix(80))")
    }
    #expect(
      records[0].pointer == "/A" + String(repeating: "A", count: 160 - 2 - Self.mark(1_000_001).count)
        + Self.mark(1_000_001))
    #expect(records[10].message.hasPrefix("unknown message type \"TTTT"))
  }

  @Test func aDecodingFailureCarriesABoundedType() throws {
    let type = String(repeating: "T", count: Self.megabyte)
    var options = ValidationOptions(version: .v0_2_0)
    options.strict = true
    do {
      _ = try MessageDecoder(options: options).decode(Self.frame([("type", .string(type))]))
      Issue.record("a strict decoder refuses an unknown type")
    } catch {
      #expect(Self.scalars(error.messageType) <= Finding.maxMessageTypeLength)
      #expect(error.messageType?.hasSuffix(Self.mark(Self.megabyte)) == true)
      #expect(error.description.utf8.count < 400)
    }
  }

  @Test func theObserverQuotesAndStoresBoundedTypes() {
    var observer = ConversationObserver(fallbackVersion: .v0_2_0)
    func frame(_ direction: MessageDirection, _ text: String) -> [Finding] {
      observer.observe(
        ConversationObserver.Frame(direction: direction, message: try! JSONReader().parse(text).objectValue!))
    }
    _ = frame(.serverToClient, #"{"type":"hello","message":"m","version":"0.2.0","auth_version":1,"instructions":"i"}"#)
    let type = String(repeating: "T", count: Self.megabyte)
    let findings = frame(.clientToServer, Self.frame([("type", .string(type))]))
    #expect(findings.map(\.code) == [.beforeAuthentication])
    for finding in findings {
      #expect(Self.scalars(finding.messageType) <= Finding.maxMessageTypeLength)
      #expect(finding.description.utf8.count < 400)
    }
  }

  @Test func engineCloseReasonsQuoteAtMostSixtyScalarsOfThePeersText() throws {
    func close(_ connected: JSONObject) throws -> CloseReason? {
      var engine = ClientEngine(
        ClientConfiguration(apiKey: "untethered-0123456789abcdef0123456789abcdef", allowAuthV1: true))
      _ = try engine.handle(.start, now: 0)
      _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: 0)
      let hello = JSONObject.frame(
        "hello",
        [
          "message": "m", "instructions": "i", "version": "0.5.0", "auth_version": 1,
          "protocol_versions": ["0.4.0", "0.5.0"], "auth_versions": [1],
        ])
      _ = try engine.handle(.frameReceived(hello), now: 0)
      for action in try engine.handle(.frameReceived(connected), now: 0) {
        if case .closeTransport(_, let reason) = action { return reason }
      }
      return nil
    }
    let huge = String(repeating: "X", count: Self.megabyte)
    let extra = try #require(
      try close(
        JSONObject.frame(
          "connected",
          [
            "message": "m", "session_id": .null, "negotiated_protocol_version": "0.5.0",
            "capabilities": [.string(huge)],
          ])))
    #expect(extra.code == "protocol_violation")
    #expect(extra.detail == "capability \"\(String(repeating: "X", count: 60))…\" was not asked for")
    let version = try #require(
      try close(
        JSONObject.frame(
          "connected", ["message": "m", "session_id": .null, "negotiated_protocol_version": .string(Self.oneGrapheme)]))
    )
    #expect(version.code == "protocol_violation")
    #expect(Self.scalars(version.detail) < 200)
  }

  @Test func aRefusedVersionAndTheServersRequiredVersionAreBounded() throws {
    // The client's announced version may carry any suffix after `-`; the failure's text quotes 60.
    let failure = NegotiationFailure(received: "0.1.0-" + String(repeating: "x", count: Self.megabyte))
    #expect(
      "\(failure)"
        == "unsupported_protocol_version: required 0.4.0, received \"0.1.0-\(String(repeating: "x", count: 54))…\"")
    // A hostile server's `required` is not a version: the refusal fails validation, and the
    // violation the application gets quotes a bounded part of it.
    var engine = ClientEngine(
      ClientConfiguration(apiKey: "untethered-0123456789abcdef0123456789abcdef", allowAuthV1: true))
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: 0)
    let refusal = JSONObject.frame(
      "error",
      [
        "message": "no", "code": "unsupported_protocol_version", "received": "0.5.0",
        "required": .string(String(repeating: "9", count: Self.megabyte)),
      ])
    let violations = try engine.handle(.frameReceived(refusal), now: 0).compactMap { action -> ProtocolViolation? in
      if case .deliver(.violation(let violation)) = action { return violation }
      return nil
    }
    #expect(violations.count == 1)
    #expect(violations.allSatisfy { Self.scalars($0.description) < 1_000 })
    #expect(violations.first?.findings.contains { $0.pointer == "/required" } == true)
  }

  @Test func cuttingCountsScalarsAndStopsAtTheLimit() {
    #expect(Redaction.cut("abc", limit: 3) == "abc")
    #expect(Redaction.cut("abcd", limit: 3) == "abc…")
    #expect(Redaction.cut(Self.oneGrapheme, limit: 3) == "a\u{301}\u{301}…")
    #expect(Redaction.cutMarkingLength("abcd", limit: 4) == "abcd")
    #expect(
      Redaction.cutMarkingLength(String(repeating: "é", count: 40), limit: 20) == String(repeating: "é", count: 8)
        + "… (80 bytes)")
    // A key cut in half is still masked: masking comes first.
    let key = "untethered-0123456789abcdef0123456789abcdef"
    #expect(!Redaction.truncated(key, limit: 20).contains("0123"))
  }
}
