import Foundation
import Testing
import VCProto

// The code that the DocC articles Sources/VCProto/VCProto.docc/GettingStarted.md ("Decode", "Encode",
// "Validate without decoding"), NegotiationAndAuthentication.md ("Negotiation", "Authentication"),
// TheTypedModel.md ("Members of alternative types") and PersistingMessages.md (its overview) show is the code between the `snippet` markers
// below, line for line: `articleShowsThisCode` fails when an article shows code that is not here (or
// other code), and an API change breaks the build of this file, not silently the articles. The file
// imports VCProto without @testable, as an application would. Each snippet's `print` is a local
// function that records what it prints.

/// What a snippet printed, one line per call.
final class PrintedLines {
  var lines: [String] = []
  func record(_ items: [Any]) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }
}

private func documentedNegotiation(into printed: PrintedLines) throws {
  func print(_ items: Any...) { printed.record(items) }
  // snippet begin: negotiation
  let offer = ServerOffer(versions: .realHead)
  switch try Negotiator.negotiate(server: offer, client: ClientAnnouncement(protocolVersion: "0.5.0")) {
  case .success(let outcome): print(outcome.version)  // "0.5.0"
  case .failure(let refusal): print(refusal.errorMessage)  // send it, then close
  }
  // snippet end: negotiation
}

/// The client's side of the handshake as the article shows it; `send` and `answer` are the socket.
private func documentedAuthentication(
  key: String, hello: HelloMessage, id: String, announcement: ClientAnnouncement, send: (ClientMessage) -> Void,
  answer: () -> ServerMessage
) throws -> ClientSession {
  var firstFrameAfterConnect: ServerMessage { answer() }
  // snippet begin: authentication
  let client = AuthClient(apiKey: key)  // auth v1 refused
  let handshake = try client.begin(hello: hello, sessionId: id, announcement: announcement)
  send(.connect(handshake.connect))
  let session = try handshake.complete(with: firstFrameAfterConnect)
  // snippet end: authentication
  return session
}

private func documentedDecode(_ frameBytes: [UInt8], into printed: PrintedLines) {
  func print(_ items: Any...) { printed.record(items) }
  // snippet begin: decode
  let decoder = MessageDecoder(options: ValidationOptions(direction: .serverToClient, version: .v0_2_0))
  do {
    switch try decoder.decodeServerMessage(frameBytes) {
    case .commandOutput(let line):
      print(line.stream == .stderr ? "stderr:" : "stdout:", line.text)
    case .unknown(let object):
      print("a newer server sent", object["type"]?.stringValue ?? "?")
    default:
      break
    }
  } catch {
    for finding in error.findings { print(finding) }
  }
  // snippet end: decode
}

private func documentedEncode() -> [UInt8] {
  // snippet begin: encode
  let bytes = MessageEncoder().encode(.client(.ping(PingMessage())))
  // snippet end: encode
  return bytes
}

private func documentedValidation(_ frameText: String, into printed: PrintedLines) {
  func print(_ items: Any...) { printed.record(items) }
  // snippet begin: validate
  let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(frameText)
  for finding in report.findings where finding.severity == .error {
    print(finding.code, finding.pointer, finding.message)
  }
  // snippet end: validate
}

private func documentedAlternatives(_ message: ServerMessage, into printed: PrintedLines) {
  func print(_ items: Any...) { printed.record(items) }
  // snippet begin: alternatives
  if case .sessionUpdated(.v0_3_0(let update)) = message {
    for element in update.messages {
      switch element {
      case .historyMessage(let canonical): print(canonical.role.rawValue, canonical.text)
      case .claudeRecord(let record): print(record.role ?? "?", record.text ?? "")
      }
    }
  }
  // snippet end: alternatives
}

/// What PersistingMessages.md shows: a message stored in an app's record and read back with the
/// version in `userInfo`, and a cursor stored and read back.
private func documentedPersisting(
  sessionId: String, message: ServerMessage, version: ProtocolVersion, cursor: SubscriptionCursor
) throws -> (ServerMessage, SubscriptionCursor) {
  // snippet begin: persisting
  struct StoredMessage: Codable {  // a row of the app's history
    var sessionId: String
    var message: ServerMessage
  }
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]  // the same text for the same value
  let data = try encoder.encode(StoredMessage(sessionId: sessionId, message: message))

  let decoder = JSONDecoder()
  decoder.userInfo[ProtocolVersion.codingUserInfoKey] = version  // the connection's, stored beside the row
  let row = try decoder.decode(StoredMessage.self, from: data)  // checked as MessageDecoder checks a frame

  let saved = try encoder.encode(cursor)  // {"file_signature_seen":"…","from_offset":120}
  let resumeFrom = try JSONDecoder().decode(SubscriptionCursor.self, from: saved)  // needs no version
  // snippet end: persisting
  return (row.message, resumeFrom)
}

@Suite struct DocCExampleTests {
  static let key = "untethered-0123456789abcdef0123456789abcdef"
  static let sessionId = "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11"
  static let docc = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources/VCProto/VCProto.docc")

  /// The real head server (floor 0.4.0, ceiling 0.5.0) accepts a 0.5.0 announcement as 0.5.0
  /// (STANDARDS.md#extensions), which is what the article's comment says is printed.
  @Test func negotiationPrintsTheVersion() throws {
    let printed = PrintedLines()
    try documentedNegotiation(into: printed)
    #expect(printed.lines == ["0.5.0"])
  }

  /// The documented client against an auth v2 server: the session comes from a `connected` whose proof
  /// verified, and the key itself never travels.
  @Test func authenticationAgainstAnAuthV2Server() throws {
    let store = ChallengeStore()
    let offer = ServerOffer(versions: .realHead, authVersions: [1, 2])
    let hello = offer.hello(challenge: store.issue(now: .now))
    var sent: [ClientMessage] = []
    func answer(_ server: AuthServer) -> ServerMessage {
      guard case .connect(let connect)? = sent.last,
        case .success(let outcome)? = try? Negotiator.negotiate(
          server: offer, client: ClientAnnouncement(connect: connect))
      else { return .authError(AuthErrorMessage(message: "no connect")) }
      switch server.verify(connect, hello: hello, store: store, outcome: outcome, sessionId: Self.sessionId, now: .now)
      {
      case .success(let success): return .connected(success.connected)
      case .failure: return .authError(AuthErrorMessage(message: "Authentication failed"))
      }
    }
    let session = try documentedAuthentication(
      key: Self.key, hello: hello, id: Self.sessionId, announcement: ClientAnnouncement(protocolVersion: "0.5.0"),
      send: { sent.append($0) }, answer: { answer(AuthServer(apiKey: Self.key)) })
    #expect(session.isServerVerified && session.authVersion == 2)
    #expect(session.negotiatedProtocolVersion == "0.5.0")
    #expect(sent.count == 1)
    let wire = String(decoding: MessageEncoder().encode(.client(sent[0])), as: UTF8.self)
    #expect(!wire.contains(Self.key))

    // A server that does not know the key: refused, never a session.
    let otherHello = offer.hello(challenge: store.issue(now: .now))
    #expect(throws: AuthClient.Refusal.self) {
      _ = try documentedAuthentication(
        key: Self.key, hello: otherHello, id: Self.sessionId,
        announcement: ClientAnnouncement(protocolVersion: "0.5.0"),
        send: { sent.append($0) }, answer: { .authError(AuthErrorMessage(message: "Authentication failed")) })
    }
  }

  /// "auth v1 refused": a hello without a challenge gets no `connect` at all, so the key is not sent.
  @Test func authenticationRefusesAuthV1() {
    let hello = ServerOffer(versions: .realHead).hello(challenge: nil)
    var sent: [ClientMessage] = []
    #expect(throws: AuthClient.Refusal.downgradeRefused) {
      _ = try documentedAuthentication(
        key: Self.key, hello: hello, id: Self.sessionId, announcement: ClientAnnouncement(protocolVersion: "0.5.0"),
        send: { sent.append($0) }, answer: { .authError(AuthErrorMessage(message: "unused")) })
    }
    #expect(sent.isEmpty)
  }

  /// Each branch of the decode example: a stderr line, an unknown type, an invalid frame.
  @Test func decodePrintsWhatTheArticleSays() {
    let printed = PrintedLines()
    documentedDecode(
      Array(#"{"type":"command_output","command_session_id":"c","stream":"stderr","text":"boom"}"#.utf8), into: printed)
    documentedDecode(Array(#"{"type":"from_the_future"}"#.utf8), into: printed)
    documentedDecode(
      Array(#"{"type":"command_output","command_session_id":"c","stream":"stderr"}"#.utf8), into: printed)
    #expect(printed.lines.count == 3)
    #expect(printed.lines.first == "stderr: boom")
    #expect(printed.lines.dropFirst().first == "a newer server sent from_the_future")
    #expect(printed.lines.last?.contains("/text") == true, "the finding names the missing member")
  }

  /// The canonical form of a ping (STANDARDS.md#connection-flow: `type` first, compact).
  @Test func encodeWritesTheCanonicalPing() {
    #expect(String(decoding: documentedEncode(), as: UTF8.self) == #"{"type":"ping"}"#)
  }

  @Test func validatePrintsOnlyErrors() {
    let printed = PrintedLines()
    documentedValidation(#"{"type":"ping","extra":1}"#, into: printed)  // a warning only
    #expect(printed.lines.isEmpty)
    documentedValidation(#"{"type":"prompt"}"#, into: printed)
    #expect(printed.lines == ["missing_field /text required member \"text\" is missing"])
  }

  /// A 0.3.0 push with a canonical message and a raw record (STANDARDS.md#message-reference, `session_updated`):
  /// one line each, the record's text from its `text` content blocks.
  @Test func alternativesPrintEachElement() throws {
    let frame =
      #"{"type":"session_updated","session_id":"s","messages":["#
      + #"{"uuid":"u","role":"user","text":"Run the tests","timestamp":null,"provider":"claude"},"#
      + #"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Done."}]}}]}"#
    let decoder = MessageDecoder(options: ValidationOptions(version: .v0_3_0))
    let printed = PrintedLines()
    documentedAlternatives(try decoder.decodeServerMessage(Array(frame.utf8)), into: printed)
    #expect(printed.lines == ["user Run the tests", "assistant Done."])
  }

  /// A 0.5.0 message and cursor come back as they were stored.
  @Test func persistingRoundTrips() throws {
    let message = ServerMessage.turnComplete(.v0_3_0(TurnCompleteMessageV0_3_0(sessionId: "s")))
    let cursor = SubscriptionCursor.offset(120, signature: "sig")
    let (row, resumeFrom) = try documentedPersisting(
      sessionId: "s", message: message, version: .v0_5_0, cursor: cursor)
    #expect(row == message)
    #expect(resumeFrom == cursor)
  }

  /// The code between the `snippet` markers, one trimmed line each.
  static func snippet(_ name: String) throws -> [String] {
    let source = try String(contentsOfFile: #filePath, encoding: .utf8)
    let lines = source.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let begin = try #require(lines.firstIndex(of: "// snippet begin: \(name)"))
    let end = try #require(lines.firstIndex(of: "// snippet end: \(name)"))
    return Array(lines[(begin + 1)..<end])
  }

  /// Every Swift block of each article is one of the snippets, in this order. GettingStarted's
  /// package manifest excerpt is not library code and is left out; its decode example begins with the
  /// `import VCProto` this file has too.
  @Test(arguments: [
    ("GettingStarted.md", ["decode", "encode", "validate"]),
    ("NegotiationAndAuthentication.md", ["negotiation", "authentication"]),
    ("TheTypedModel.md", ["alternatives"]),
    ("PersistingMessages.md", ["persisting"]),
  ])
  func articleShowsThisCode(_ article: String, _ names: [String]) throws {
    let markdown = try String(contentsOf: Self.docc.appendingPathComponent(article), encoding: .utf8)
    let blocks = ConnectionReadmeExampleTests.swiftBlocks(markdown).filter { $0.first != "// Package.swift" }
    var expected = try names.map(Self.snippet)
    if names.first == "decode" { expected[0] = ["import VCProto", ""] + expected[0] }
    #expect(blocks == expected, "\(article) shows exactly the code of \(#fileID)")
  }
}
