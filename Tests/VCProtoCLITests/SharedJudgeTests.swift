import Foundation
import Testing
import VCProto
import VCProtoCapture

@testable import VCProtoCLI

/// `vcproto vectors` and `vcproto conformance` judge answers with one judge
/// (``ConformanceKind/judge(_:vector:)``): the same wrong answer to the same vector fails both with
/// the same line, and the library's right answers pass both, in process and over the pipe.
@Suite struct SharedJudgeTests {
  /// One vector of each kind from the repository, and the file (under a vectors folder) it goes in.
  static let picks: [(file: String, id: String)] = [
    ("messages/0.5.0/ack.json", "ack.valid"),
    ("envelope/valid.json", "valid-text-zlib-ping"),
    ("auth/handshakes.json", "v2.basic"),
    ("auth/hkdf.json", "rfc5869.1"),
    ("auth/frames.json", "frames.replayed"),
    ("negotiation/cases.json", "matrix.default.absent"),
    ("sessions/client.json", "client.0.5.0.handshake.real_head"),
  ]

  /// The picked vectors, copied to a fresh vectors folder.
  func vectors() throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("vcproto-judge-\(UUID().uuidString)")
    for (file, id) in Self.picks {
      let data = try #require(
        FileManager.default.contents(atPath: packageRoot.appendingPathComponent("Vectors/\(file)").path))
      guard case .array(let list) = try JSONReader(limits: VectorsCommand.vectorFileLimits).parse([UInt8](data)) else {
        Issue.record("\(file) is not an array")
        continue
      }
      let vector = try #require(list.first { $0["id"]?.stringValue == id }, "\(file): no vector \(id)")
      let url = root.appendingPathComponent(file)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(JSONValue.array([vector]).jsonText.utf8).write(to: url)
    }
    return root
  }

  /// A wrong answer of the same shape: one member of the library's result changed.
  static func corrupt(kind: String, _ reply: JSONValue) -> JSONValue {
    guard case .object(var result)? = reply["result"] else { return reply }
    switch kind {
    case "messages": result["valid"] = .bool(!(result["valid"]?.boolValue ?? false))
    case "envelope": result["opened_base64"] = .string("e30=")
    case "auth": result["auth_response"] = .string(String(repeating: "0", count: 64))
    case "auth_hkdf": result["okm_hex"] = .string("00")
    case "auth_frames":
      var messages = result["messages"]?.arrayValue ?? []
      if case .object(var first)? = messages.first {
        first["verdict"] = .string("accept")
        first["frame"] = .string("{}")
        messages[0] = .object(first)
      }
      result["messages"] = .array(messages)
    case "negotiation": result["capabilities"] = .array([.string("bogus")])
    case "sessions": result["steps"] = .array(Array((result["steps"]?.arrayValue ?? []).dropLast()))
    default: break
    }
    return ["result": .object(result)]
  }

  /// A peer script answering each test with the reply recorded for its id.
  func peer(_ replies: [String: JSONValue]) -> URL {
    let table = JSONValue.object(
      JSONObject(replies.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: $0.value) }))
    let kinds = JSONValue.array(SwiftPeer.kinds.map { .string($0) })
    let script = """
      import json, sys
      replies = json.loads(\(JSONValue.string(table.jsonText).jsonText))
      print(json.dumps({"conformance": 1, "kinds": json.loads(\(JSONValue.string(kinds.jsonText).jsonText))}), flush=True)
      for line in sys.stdin:
          rid = json.loads(line)["id"]
          print(json.dumps(dict(replies[rid], id=rid)), flush=True)
      """
    return temporaryFile(script, name: "peer.py")
  }

  /// What `vcproto vectors` prints with `peer` answering, and what `vcproto conformance` prints with
  /// a child process giving the same answers: the FAIL lines of each.
  func bothRunners(_ root: URL, _ answer: @escaping VectorsCommand.Peer) throws -> (
    vectors: [String], conformance: [String]
  ) {
    let io = CommandIO(standardOutput: OutputSink(), standardError: OutputSink())
    let status = VectorsCommand.run(
      try ArgumentParser.parse([root.path], for: VectorsCommand.spec), io: io, peer: answer)
    let vectorsOut = io.standardOutput.text
    var replies: [String: JSONValue] = [:]
    for test in ConformanceTestCase.discover(root: root.path).tests {
      let kind = try #require(ConformanceKind.all.first { $0.name == test.kind })
      replies[test.name] = answer(kind.name, try kind.input(test.vector).get())
    }
    let conformance = runCommand(["conformance", "--vectors", root.path, "--", "python3", peer(replies).path])
    #expect((status == 0) == (conformance.status == 0), "\(vectorsOut)\n\(conformance.out)\(conformance.err)")
    func fails(_ text: String) -> [String] {
      text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("FAIL") }
    }
    return (fails(vectorsOut), fails(conformance.out))
  }

  @Test func theLibrarysAnswersPassBothRunners() throws {
    let root = try vectors()
    let run = try bothRunners(root, SwiftPeer.reply)
    #expect(run.vectors.isEmpty, "\(run.vectors)")
    #expect(run.conformance.isEmpty, "\(run.conformance)")
  }

  @Test func aWrongAnswerFailsBothRunnersWithTheSameLine() throws {
    let root = try vectors()
    let run = try bothRunners(root) { kind, input in Self.corrupt(kind: kind, SwiftPeer.reply(kind: kind, input: input))
    }
    #expect(run.vectors.count == Self.picks.count, "\(run.vectors)")
    #expect(run.vectors == run.conformance)
    for kind in ["messages", "envelope", "auth", "negotiation", "sessions"] {
      #expect(run.vectors.contains { $0.hasPrefix("FAIL \(kind)/") }, "no \(kind) failure")
    }
  }
}
