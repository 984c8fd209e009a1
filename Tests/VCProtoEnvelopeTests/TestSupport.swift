import Foundation
import XCTest

@testable import VCProto

/// The package root, found from this file's location (Tests/VCProtoEnvelopeTests/…).
func packageRoot() -> URL {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
}

/// Asserts that `body` throws exactly `expected`.
func assertEnvelopeError<T>(
  _ expected: EnvelopeError, file: StaticString = #filePath, line: UInt = #line,
  _ body: () throws(EnvelopeError) -> T
) {
  do {
    _ = try body()
    XCTFail("expected \(expected.code), but it succeeded", file: file, line: line)
  } catch {
    XCTAssertEqual(
      error, expected, "expected \(expected.code), got \(error.code)", file: file, line: line)
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

/// The fields of a text envelope, extracted the way the core JSON parser will.
struct TextEnvelopeFields {
  var encoding: String
  var length: Int
  var data: String

  /// A minimal parser for flat JSON objects of scalars, for tests only. Missing fields,
  /// wrong JSON types and syntax errors are `malformed`.
  static func parse(_ bytes: [UInt8]) throws(EnvelopeError) -> TextEnvelopeFields {
    var parser = MiniJSON(bytes: bytes)
    let object = try parser.parseFlatObject()
    guard case .string("compressed")? = object["type"],
      case .string(let encoding)? = object["encoding"],
      case .integer(let length)? = object["length"],
      case .string(let data)? = object["data"]
    else { throw .malformed }
    return TextEnvelopeFields(encoding: encoding, length: length, data: data)
  }

  /// Parses `frame` and opens it with `codec`.
  static func open(_ frame: [UInt8], with codec: EnvelopeCodec) throws(EnvelopeError) -> [UInt8] {
    let fields = try parse(frame)
    return try codec.open(text: fields.encoding, length: fields.length, data: fields.data)
  }
}

/// Just enough JSON for text envelopes: one object whose values are scalars.
struct MiniJSON {
  enum Value: Equatable {
    case string(String)
    case integer(Int)
    case otherNumber
    case bool(Bool)
    case null
  }

  let bytes: [UInt8]
  var index = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  mutating func parseFlatObject() throws(EnvelopeError) -> [String: Value] {
    var result: [String: Value] = [:]
    skipSpace()
    try expect(UInt8(ascii: "{"))
    skipSpace()
    if peek() == UInt8(ascii: "}") {
      index += 1
      return result
    }
    while true {
      skipSpace()
      let key = try parseString()
      skipSpace()
      try expect(UInt8(ascii: ":"))
      skipSpace()
      result[key] = try parseValue()
      skipSpace()
      if peek() == UInt8(ascii: ",") {
        index += 1
        continue
      }
      try expect(UInt8(ascii: "}"))
      break
    }
    skipSpace()
    guard index == bytes.count else { throw .malformed }
    return result
  }

  private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func skipSpace() {
    while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
      index += 1
    }
  }

  private mutating func expect(_ byte: UInt8) throws(EnvelopeError) {
    guard peek() == byte else { throw .malformed }
    index += 1
  }

  private mutating func parseValue() throws(EnvelopeError) -> Value {
    switch peek() {
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    default: return try parseNumber()
    }
  }

  private mutating func literal(_ word: String) throws(EnvelopeError) {
    for byte in word.utf8 { try expect(byte) }
  }

  private mutating func parseNumber() throws(EnvelopeError) -> Value {
    let start = index
    var integral = true
    while let byte = peek(),
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
        || byte == UInt8(ascii: "E")
    {
      if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
        integral = false
      }
      index += 1
    }
    guard index > start else { throw .malformed }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard integral else { return .otherNumber }
    guard let value = Int(text) else { throw .malformed }
    return .integer(value)
  }

  private mutating func parseString() throws(EnvelopeError) -> String {
    try expect(UInt8(ascii: "\""))
    var out = [UInt8]()
    while let byte = peek() {
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(decoding: out, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard let escaped = peek() else { throw .malformed }
        index += 1
        switch escaped {
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "u"):
          guard index + 4 <= bytes.count,
            let scalarValue = UInt32(
              String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
            let scalar = Unicode.Scalar(scalarValue)
          else { throw .malformed }
          index += 4
          out += Array(String(Character(scalar)).utf8)
        default: out.append(escaped)
        }
      default:
        out.append(byte)
      }
    }
    throw .malformed
  }
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
