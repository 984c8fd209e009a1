import Foundation
import Testing
import VCProto

@testable import VCProtoCLI
@testable import VCProtoCapture

/// `vcproto validate` checks a conversation without a handshake against `--protocol`, else 0.5.0
/// (today's protocol), and its summary line says which version it used and why.
@Suite struct ValidateVersionTests {
  /// The frame of a 0.5.0 golden vector (valid in 0.5.0; this one breaks 0.2.0's rules).
  static func frame(_ id: String) throws -> String {
    let type = String(id.prefix { $0 != "." })
    let url = packageRoot.appendingPathComponent("Vectors/messages/0.5.0/\(type).json")
    let vectors = try JSONReader().parse(Array(try Data(contentsOf: url)))
    let vector = try #require(vectors.arrayValue?.first { $0["id"]?.stringValue == id })
    return try #require(vector["frame"]?.stringValue)
  }

  static let assumed = "protocol 0.5.0 (assumed default: no handshake, no --protocol)"

  @Test func withoutHandshakeOrProtocolTheDefaultIsToday() throws {
    #expect(ParsedArguments.defaultProtocol == .v0_5_0)
    let url = temporaryFile(try Self.frame("session_history.valid"), name: "history.json")
    let r = runCommand(["validate", "--input", "frame", url.path])
    #expect(r.status == 0, "\(r.out)")
    #expect(r.out.hasPrefix("OK \(url.path): 1 frame, 1 valid, 0 invalid; 0 errors, 0 warnings; \(Self.assumed)\n"))
    // The same frame is not a 0.2.0 one: the version matters, and --protocol chooses it.
    let old = runCommand(["validate", "--input", "frame", "--protocol", "0.2.0", url.path])
    #expect(old.status == 1)
    #expect(old.out.contains("; protocol 0.2.0 (given by --protocol)\n"))
  }

  @Test func decodeHasTheSameDefault() throws {
    let url = temporaryFile(try Self.frame("session_history.valid"), name: "history.json")
    #expect(runCommand(["decode", url.path]).status == 0)
    #expect(runCommand(["decode", "--protocol", "0.2.0", url.path]).status == 1)
  }

  @Test func theHandshakeWinsOverProtocol() {
    for options in [[], ["--protocol", "0.4.0"]] {
      let r = runCommand(["validate"] + options + ["Samples/conversation-0.5.0.jsonl"], directory: packageRoot.path)
      #expect(r.status == 0)
      #expect(r.out.split(separator: "\n").first?.hasSuffix("; protocol 0.5.0 (announced by the handshake)") == true)
    }
    let r = runCommand(["validate", "Samples/conversation-0.4.0.jsonl"], directory: packageRoot.path)
    #expect(r.out.split(separator: "\n").first?.hasSuffix("; protocol 0.4.0 (announced by the handshake)") == true)
  }

  /// Each conversation counts with the version its handshake settled on (the `hello` of a
  /// negotiating server is checked against its floor before the `connect`; that is not a version
  /// the conversation used), and connections without a handshake are named apart.
  @Test func everyConversationIsNamedOnce() throws {
    let lines = try String(
      contentsOf: packageRoot.appendingPathComponent("Samples/conversation-0.5.0.jsonl"), encoding: .utf8
    ).split(separator: "\n").prefix(3).map { "{\"connection\":1," + $0.dropFirst() }
    let headless = #"{"connection":2,"direction":"client_to_server","data":"{\"type\":\"ping\"}"}"#
    let url = temporaryFile((lines + [headless]).joined(separator: "\n") + "\n", name: "mixed.jsonl")
    let r = runCommand(["validate", url.path])
    #expect(
      r.out.split(separator: "\n").first?.hasSuffix(
        "; protocol 0.5.0 (announced by the handshake), 0.5.0 (assumed default: no handshake, no --protocol)") == true,
      "\(r.out)")
    let json = runCommand(["validate", "--format", "json", "--protocol", "0.4.0", url.path])
    let summary = try JSONReader().parse(String(json.out.split(separator: "\n").last!))["summary"]
    #expect(
      summary?["protocols"]
        == [["version": "0.5.0", "origin": "handshake"], ["version": "0.4.0", "origin": "protocol_option"]])
  }

  @Test func summaryGroupsVersionsByOrigin() {
    #expect(VersionUse.summary([]) == nil)
    let uses: Set<VersionUse> = [
      VersionUse(version: .v0_5_0, origin: .handshake), VersionUse(version: .v0_2_0, origin: .option),
      VersionUse(version: .v0_4_0, origin: .handshake),
    ]
    #expect(
      VersionUse.summary(uses)
        == "protocol 0.4.0, 0.5.0 (announced by the handshake), 0.2.0 (given by --protocol)")
  }
}

/// A message vector names its version (Vectors/README.md): the runners assume none.
@Suite struct VectorVersionTests {
  @Test func aMessageVectorWithoutItsVersionIsABadVector() throws {
    let vector = try JSONReader().parse(#"{"id":"x","frame":"{\"type\":\"ping\"}","valid":true}"#)
    let run = VectorsCommand.verdict(ConformanceTestCase(name: "x", kind: "messages", vector: vector))
    #expect(!run.passed && run.why == #"bad vector: the vector has no "protocol_version""#)
    guard case .failure(let problem) = ConformanceKind.messages.input(vector) else {
      Issue.record("the conformance runner sent a vector without its version")
      return
    }
    #expect(problem.text == #"the vector has no "protocol_version""#)
  }
}
