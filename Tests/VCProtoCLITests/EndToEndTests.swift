import Foundation
import Testing
import VCProto

/// Runs the built `vcproto` executable on the shipped samples.
@Suite struct EndToEndTests {
  /// The built executable: `$VCPROTO_BINARY`, else next to the test bundle (the products
  /// directory), else `.build/debug/vcproto` under the package root.
  static let binary: URL? = {
    let fm = FileManager.default
    func executable(_ url: URL) -> URL? { fm.isExecutableFile(atPath: url.path) ? url : nil }
    if let path = ProcessInfo.processInfo.environment["VCPROTO_BINARY"] {
      return executable(URL(fileURLWithPath: path))
    }
    var folders: [URL] = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0])]
    if let exe = Bundle.main.executableURL { folders.append(exe) }
    for start in folders {
      var dir = start
      for _ in 0..<4 {
        if let found = executable(dir.appendingPathComponent("vcproto")), !found.hasDirectoryPath { return found }
        dir = dir.deletingLastPathComponent()
      }
    }
    return executable(packageRoot.appendingPathComponent(".build/debug/vcproto"))
  }()

  func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil) throws -> (
    status: Int32, out: String, err: String
  ) {
    let binary = try #require(Self.binary, "the vcproto executable was not found; set VCPROTO_BINARY")
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = packageRoot
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self)
    )
  }

  @Test func cleanConversationValidates() throws {
    let r = try run(["validate", "Samples/conversation-0.2.0.jsonl"])
    #expect(r.status == 0)
    #expect(
      r.out.hasPrefix(
        "OK Samples/conversation-0.2.0.jsonl: 44 frames, 44 valid, 0 invalid; 0 errors, 0 warnings;"
          + " protocol 0.2.0 (announced by the handshake)\n"))
    #expect(r.out.contains("by code: none"))
    #expect(!r.out.contains(fakeKey))
    let json = try run(["validate", "--format=json", "Samples/conversation-0.2.0.jsonl"])
    #expect(json.status == 0)
    let lines = json.out.split(separator: "\n")
    #expect(lines.count == 1)
    let summary = try JSONReader().parse(String(lines[0]))["summary"]
    #expect(summary?["errors"]?.intValue == 0)
    #expect(summary?["frames"]?.intValue == 44)
  }

  @Test func faultyCaptureReportsEachPlantedFault() throws {
    let r = try run(["validate", "Samples/faulty-0.2.0.jsonl"])
    #expect(r.status == 1)
    let expected = [
      "Samples/faulty-0.2.0.jsonl:2: subscribe /type: error:",
      "Samples/faulty-0.2.0.jsonl:4: session_list /sessions/0/last_modified: error: expected integer, got string [wrong_type]",
      "Samples/faulty-0.2.0.jsonl:5: recent_sessions /sessions/0/last_modified: error: required member \"last_modified\" is missing [missing_field]",
      "Samples/faulty-0.2.0.jsonl:6: set_max_message_size /size_kb: error: 0 is below the minimum 1 [invalid_value]",
      "Samples/faulty-0.2.0.jsonl:7: prompt /resume_session_id: error:",
      "Samples/faulty-0.2.0.jsonl:8: - (root): error:",
      "Samples/faulty-0.2.0.jsonl:9: get_session_stats /type: warning:",
      "Samples/faulty-0.2.0.jsonl:10: message_ack /message_id: warning:",
    ]
    let lines = r.out.split(separator: "\n").map(String.init)
    for (line, prefix) in zip(lines, expected) { #expect(line.hasPrefix(prefix)) }
    for code in [
      "before_authentication", "constraint_violation", "invalid_json", "unknown_message_id", "unknown_type",
    ] {
      #expect(r.out.contains("[\(code)]"))
    }
    #expect(
      r.out.contains(
        "FAIL Samples/faulty-0.2.0.jsonl: 11 frames, 5 valid, 6 invalid; 6 errors, 2 warnings;"
          + " protocol 0.2.0 (announced by the handshake)\n"))
    #expect(!r.out.contains(fakeKey))
  }

  @Test func harWithBinaryEnvelopeValidates() throws {
    let r = try run(["validate", "Samples/capture.har"])
    #expect(r.status == 0)
    #expect(r.out.contains("10 frames, 10 valid"))
    #expect(r.out.contains("session_history      1 frame"))
    let forced = try run(["validate", "--input", "jsonl", "Samples/capture.har"])
    #expect(forced.status == 1)
  }

  @Test func stdinAndUsageErrors() throws {
    let ok = try run(["validate", "-"], stdin: Data(#"{"type":"ping"}"#.utf8))
    #expect(ok.status == 0)
    #expect(ok.out.hasPrefix("OK <stdin>: 1 frame, 1 valid"))
    let frame = try run(
      ["validate", "--input", "frame", "--direction", "server_to_client", "-"], stdin: Data(#"{"type":"ping"}"#.utf8))
    #expect(frame.status == 1)
    #expect(frame.out.contains("<stdin>#0: ping /type: error:"))
    let missing = try run(["validate", "Samples/does-not-exist.jsonl"])
    #expect(missing.status == 2)
    #expect(missing.err.contains("cannot read 'Samples/does-not-exist.jsonl': no such file"))
    #expect(!missing.out.contains("OK"))
    #expect(missing.out.hasPrefix("ERROR Samples/does-not-exist.jsonl: 0 frames"))
    #expect(missing.out.contains("; 1 unreadable: Samples/does-not-exist.jsonl\n"))
    // Readable and unreadable together: the readable one is still checked, the verdict is ERROR.
    let mixed = try run(["validate", "--format", "json", "Samples/conversation-0.2.0.jsonl", "nope.jsonl"])
    #expect(mixed.status == 2)
    let summary = try JSONReader().parse(String(mixed.out.split(separator: "\n").last ?? ""))["summary"]
    #expect(summary?["frames"]?.intValue == 44)
    #expect(summary?["unreadable"]?.intValue == 1)
    #expect(summary?["unreadable_sources"] == .array([.string("nope.jsonl")]))
    let usage = try run(["validate", "--input", "xml", "x"])
    #expect(usage.status == 2)
    #expect(usage.err.contains("invalid value 'xml' for '--input' (expected jsonl, har or frame)"))
    #expect(usage.out.isEmpty)
  }

  @Test func decodeAndCatalog() throws {
    let decoded = try run(["decode"], stdin: Data(#"{"api_key":"\#(fakeKey)","type":"connect"}"#.utf8))
    #expect(decoded.status == 0)
    #expect(decoded.out == "{\n  \"type\": \"connect\",\n  \"api_key\": \"«redacted»\"\n}\n")
    let bad = try run(["decode"], stdin: Data(#"{"type":"set_max_message_size","size_kb":0}"#.utf8))
    #expect(bad.status == 1)
    #expect(bad.err.contains("[invalid_value]"))
    let catalog = try run(["catalog", "--format", "json", "--direction", "server_to_client"])
    #expect(catalog.status == 0)
    let versions = try JSONReader().parse(catalog.out)["versions"]?.arrayValue
    let types = versions?.first?["server_to_client"]?.arrayValue?.compactMap { $0["type"]?.stringValue } ?? []
    #expect(types.contains("session_history"))
    #expect(!types.contains("connect"))
    #expect(versions?.first?["client_to_server"] == nil)
  }
}
