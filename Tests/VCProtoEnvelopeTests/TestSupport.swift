import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The package root, found from this file's location (Tests/VCProtoEnvelopeTests/…).
func packageRoot() -> URL {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
}

/// Asserts that `body` throws exactly `expected`.
func assertEnvelopeError<T>(
  _ expected: EnvelopeError, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws(EnvelopeError) -> T
) {
  do {
    _ = try body()
    Issue.record("expected \(expected.code), but it succeeded", sourceLocation: sourceLocation)
  } catch {
    #expect(error == expected, "expected \(expected.code), got \(error.code)", sourceLocation: sourceLocation)
  }
}

/// A bare compressed stream (no envelope header), produced by the library's deflater.
func compressed(_ bytes: [UInt8], _ encoding: EnvelopeEncoding = .zlib, level: Int32 = 6) -> [UInt8] {
  Deflater.compress(bytes, encoding: encoding, level: level, reservingHeader: 0)
}

/// A hand-built binary envelope with arbitrary header fields.
func binaryEnvelope(
  _ payload: [UInt8], declared: UInt32, encodingID: UInt8 = 1, version: UInt8 = 1,
  flags: UInt8 = 0, magic: [UInt8] = [0x56, 0x43]
) -> [UInt8] {
  magic + [version, flags, encodingID]
    + [
      UInt8(truncatingIfNeeded: declared >> 24), UInt8(truncatingIfNeeded: declared >> 16),
      UInt8(truncatingIfNeeded: declared >> 8), UInt8(truncatingIfNeeded: declared),
    ] + payload
}

/// A realistic `session_history` frame of exactly `byteCount` bytes (at least 200).
func sampleFrame(byteCount: Int, seed: UInt64 = 1) -> [UInt8] {
  precondition(byteCount >= 200)
  var rng = seed
  func next() -> UInt64 {
    rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return rng >> 33
  }
  let words = [
    "session", "parser", "retry", "backoff", "the", "test", "failed", "passed", "Swift",
    "compile", "warning", "Sources/App/Main.swift", "line", "function", "returns", "value",
    "socket", "frame", "compressed", "latency", "ms", "user", "assistant", "tool", "output",
  ]
  let head = Array(
    #"{"type":"session_history","session_id":"4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11","messages":["#
      .utf8)
  let tailPrefix = Array(#"],"is_complete":true,"note":""#.utf8)
  let tailSuffix = Array(#""}"#.utf8)
  var frame = head
  var index = 0
  while true {
    var text = ""
    for _ in 0..<(8 + Int(next() % 24)) { text += words[Int(next() % UInt64(words.count))] + " " }
    let message =
      (index > 0 ? "," : "")
      + #"{"id":"msg-\#(String(next(), radix: 16))","role":"\#(index % 2 == 0 ? "user" : "assistant")","#
      + #""text":"\#(text)","timestamp":"2025-03-14T10:\#(10 + index % 50):00.000Z"}"#
    let bytes = Array(message.utf8)
    if frame.count + bytes.count + tailPrefix.count + tailSuffix.count > byteCount { break }
    frame += bytes
    index += 1
  }
  frame += tailPrefix
  let filler = byteCount - frame.count - tailSuffix.count
  frame += (0..<filler).map { UInt8(ascii: "a") + UInt8($0 % 26) }
  frame += tailSuffix
  precondition(frame.count == byteCount)
  return frame
}

/// The members of a text frame, parsed with the package's JSON reader (for tests that look
/// inside a sealed text envelope).
func textEnvelopeObject(_ frame: [UInt8]) throws -> JSONObject {
  try #require(try JSONReader().parse(frame).objectValue)
}

/// One vector of Vectors/messages/<version>/*.json.
struct MessageVector: Decodable {
  var id: String
  var direction: String
  var frame: String
  var valid: Bool
  var protocol_version: String
}

/// Every vector of Vectors/messages/ (every version), in file and array order.
func loadMessageVectors() throws -> [MessageVector] {
  let directory = packageRoot().appendingPathComponent("Vectors/messages")
  let files = (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? [])
    .filter { $0.hasSuffix(".json") }.sorted()
  var vectors: [MessageVector] = []
  for file in files {
    let data = try Data(contentsOf: directory.appendingPathComponent(file))
    vectors += try JSONDecoder().decode([MessageVector].self, from: data)
  }
  return vectors
}

/// The spec's valid 0.2.0 `session_history` example (Vectors/messages/0.2.0/session_history.json).
func sampleHistory() -> [UInt8] {
  let vectors = (try? loadMessageVectors()) ?? []
  guard let vector = vectors.first(where: { $0.id == "session_history.valid" && $0.protocol_version == "0.2.0" })
  else {
    preconditionFailure("session_history.valid not found in Vectors/messages")
  }
  return Array(vector.frame.utf8)
}

#if os(Linux)
  /// Reads a `kB` field such as `VmHWM` or `VmRSS` from /proc/self/status, in bytes.
  func procStatusBytes(_ field: String) -> Int? {
    let status: String
    do {
      status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    } catch {
      return nil
    }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
      let digits = line.split(separator: " ").first { Int($0) != nil }
      return digits.flatMap { Int($0) }.map { $0 * 1024 }
    }
    return nil
  }

  /// Resets the kernel's peak-RSS counter (VmHWM) to the current RSS; `false` when the
  /// kernel refuses (then VmHWM keeps the process-lifetime peak).
  func resetPeakRSS() -> Bool {
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { handle.closeFile() }
    do {
      try handle.write(contentsOf: Data("5".utf8))
      return true
    } catch {
      return false
    }
  }
#endif
