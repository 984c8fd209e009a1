import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Collects log records for assertions.
final class RecordingSink: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [LogRecord] = []

  var records: [LogRecord] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }

  func logger(_ level: LogLevel = .debug) -> ProtocolLogger {
    ProtocolLogger(minimumLevel: level) { record in
      self.lock.lock()
      self.stored.append(record)
      self.lock.unlock()
    }
  }
}

@Suite struct LoggingTests {
  static let key = "untethered-00112233445566778899aabbccddeeff"

  /// Frames that make the validator log at every level it uses: a missing field, wrong and null
  /// members, malformed JSON, an unknown type, an undeclared member, and every invalid vector.
  static func faultyFrames() throws -> [String] {
    [
      #"{"type":"command_output_full","command_session_id":"silent-marker-1","output":""}"#,
      #"{"type":"session_list","sessions":[{"session_id":"silent-marker-2","name":7}],"total_count":null}"#,
      #"{"type":"silent-marker-3-unknown"}"#, #"{"type":"ping","silent-marker-4":1}"#,
      #"{"type":"connect","api_key":"silent-marker-5",,}"#,
    ] + (try MessageVectorTests.vectors().filter { !$0.valid }.map(\.frame))
  }

  @Test func silentByDefault() throws {
    // The default is the shared silent logger ...
    #expect(Validator(options: ValidationOptions(version: .v0_2_0)).logger === ProtocolLogger.silent)
    // ... whose level is above everything the library logs: a sink at that level receives nothing
    // from any faulty frame, while the same frames at `.debug` do reach a sink (so they would show).
    let silent = RecordingSink()
    let loud = RecordingSink()
    for frame in try Self.faultyFrames() {
      _ = Validator(
        options: ValidationOptions(version: .v0_2_0), logger: silent.logger(ProtocolLogger.silent.minimumLevel)
      ).validate(frame)
      _ = Validator(options: ValidationOptions(version: .v0_2_0), logger: loud.logger(.debug)).validate(frame)
    }
    #expect(silent.records.isEmpty, "\(silent.records.prefix(3))")
    #expect(Set(loud.records.map(\.level)) == [.debug, .info, .warning])
    // And the default validator writes nothing to standard output or standard error.
    let output = try Self.capturingStandardStreams {
      for frame in try Self.faultyFrames() {
        _ = Validator(options: ValidationOptions(version: .v0_2_0)).validate(frame)
      }
    }
    #expect(!output.contains("silent-marker"), "\(output)")
    #expect(!output.contains("missing field"), "\(output)")
  }

  /// Runs `body` with file descriptors 1 and 2 redirected to a temporary file and returns what was
  /// written. (The test runner may print its own lines meanwhile; the caller looks for its markers.)
  static func capturingStandardStreams(_ body: () throws -> Void) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("vcproto-silent-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: url) }
    let file = try FileHandle(forWritingTo: url)
    fflush(nil)  // every C stream
    let savedOut = dup(1)
    let savedErr = dup(2)
    dup2(file.fileDescriptor, 1)
    dup2(file.fileDescriptor, 2)
    let result = Result { try body() }
    fflush(nil)  // every C stream
    dup2(savedOut, 1)
    dup2(savedErr, 2)
    close(savedOut)
    close(savedErr)
    try file.close()
    try result.get()
    return String(decoding: try Data(contentsOf: url), as: UTF8.self)
  }

  @Test func everyMissingFieldLogsOneLineNamingTypeAndField() {
    let sink = RecordingSink()
    let frame =
      #"{"type":"command_output_full","command_session_id":"cmd-1","output":"","timestamp":"2026-01-11T17:25:32Z","command_id":"git.status"}"#
    _ = Validator(options: ValidationOptions(version: .v0_2_0), logger: sink.logger(.info)).validate(frame)
    let lines = sink.records.filter { $0.code == .missingField }.map(\.message)
    #expect(
      lines.sorted() == [
        "command_output_full: missing field /duration_ms", "command_output_full: missing field /exit_code",
        "command_output_full: missing field /shell_command", "command_output_full: missing field /working_directory",
      ])
  }

  @Test func malformedJSONLogsOffsetAndBoundedRedactedExcerpt() throws {
    let sink = RecordingSink()
    let padding = String(repeating: "p", count: 500)
    let frame = "{\"type\":\"connect\",\"api_key\":\"\(Self.key)\",\"pad\":\"\(padding)\",,}"
    let report = Validator(options: ValidationOptions(version: .v0_2_0), logger: sink.logger(.warning)).validate(frame)
    #expect(report.findings.map(\.code) == [.invalidJSON])
    let record = try #require(sink.records.first)
    #expect(record.message.contains("at byte \(frame.utf8.count - 2)"))
    let excerpt = try #require(record.message.components(separatedBy: "excerpt: ").last)
    #expect(excerpt.count <= 200)
    #expect(!record.message.contains(Self.key))
    #expect(!record.message.contains("00112233445566778899aabbccddeeff"))
  }

  @Test func excerptMasksSecretEvenWhenTheWindowCutsIt() {
    let frame = Array("{\"type\":\"connect\",\"api_key\":\"\(Self.key)\" oops".utf8)
    for offset in [0, 20, 40, frame.count] {
      let excerpt = Redaction.excerpt(of: frame, around: offset, limit: 30)
      #expect(!excerpt.contains("aabbcc"), "offset \(offset): \(excerpt)")
    }
  }

  /// The excerpt is a window of the redacted text: at most `limit` scalars, centred on the byte
  /// offset, never splitting a multi-byte character, filled from the other side at either end.
  @Test func excerptIsAWindowAroundTheOffset() {
    // 3-byte characters, with one ASCII marker in the middle.
    let half = String(repeating: "€", count: 5_000)
    let frame = Array("\(half)MARK\(half)".utf8)
    let markOffset = half.utf8.count
    let excerpt = Redaction.excerpt(of: frame, around: markOffset + 1, limit: 40)
    #expect(excerpt.unicodeScalars.count == 40)
    #expect(excerpt.contains("MARK"))
    #expect(excerpt.hasPrefix(String(repeating: "€", count: 19)))
    // An offset inside a character (its second byte) still yields whole characters.
    let inside = Redaction.excerpt(of: frame, around: 7, limit: 10)
    #expect(inside == String(repeating: "€", count: 10))
    // At the end the window is filled from before; past the end it is clamped.
    let atEnd = Redaction.excerpt(of: frame, around: frame.count + 99, limit: 10)
    #expect(atEnd == String(repeating: "€", count: 10))
    // A frame shorter than the limit comes back whole.
    #expect(Redaction.excerpt(of: Array("{,}".utf8), around: 1, limit: 10) == "{,}")
    #expect(Redaction.excerpt(of: frame, around: 0, limit: 0) == "")
  }

  @Test func truncationKeepsAPrefixAndMarksTheCut() {
    #expect(Redaction.truncated("short", limit: 60) == "short")
    let long = String(repeating: "é", count: 1_000)
    #expect(Redaction.truncated(long, limit: 5) == "ééééé…")
    #expect(Redaction.truncated(String(repeating: "x", count: 5), limit: 5) == "xxxxx")
  }

  @Test func unknownTypesAreLoggedOncePerType() {
    let sink = RecordingSink()
    let validator = Validator(options: ValidationOptions(version: .v0_2_0), logger: sink.logger(.info))
    for _ in 0..<3 { _ = validator.validate(#"{"type":"mystery"}"#) }
    _ = validator.validate(#"{"type":"other_mystery"}"#)
    let lines = sink.records.filter { $0.code == .unknownType }
    #expect(lines.count == 2)
    #expect(lines.map(\.messageType) == ["mystery", "other_mystery"])
  }

  @Test func secretsNeverAppearInFindingsOrLogs() {
    let sink = RecordingSink()
    let frames = [
      "{\"type\":\"connect\",\"api_key\":\"\(Self.key)\",\"recent_sessions_limit\":\"x\"}",
      "{\"type\":\"connect\",\"auth_response\":\"ZZ\(Self.key)\",\"client_nonce\":\"00\"}",
      "{\"type\":\"ping\",\"note\":\"\(Self.key)\"}",
    ]
    for frame in frames {
      let report = Validator(options: ValidationOptions(version: .v0_2_0), logger: sink.logger(.debug)).validate(frame)
      for finding in report.findings { #expect(!finding.message.contains("aabbccddeeff"), "\(finding)") }
    }
    for record in sink.records { #expect(!record.message.contains("aabbccddeeff"), "\(record.message)") }
  }

  /// Found by Fuzz/fuzz-frame: a key-shaped member name (or type, or duplicate key) is named by the
  /// finding's pointer and message, so it must be masked there too.
  @Test func keyShapedMemberNamesTypesAndDuplicateKeysAreMasked() {
    let sink = RecordingSink()
    let frames = [
      "{\"type\":\"connect\",\"api_key\":\"\(Self.key)\",\"clie\(Self.key)nt_nonce\":\"00ff\",\"auth_response\":\"00ff\"}",
      "{\"type\":\"\(Self.key)\"}",
      "{\"type\":\"ping\",\"\(Self.key)\":1,\"\(Self.key)\":2}",
    ]
    for frame in frames {
      let report = Validator(options: ValidationOptions(version: .v0_2_0), logger: sink.logger(.debug)).validate(frame)
      #expect(!report.findings.isEmpty, "\(frame)")
      for finding in report.findings {
        #expect(!"\(finding) \(finding.messageType ?? "")".contains("00112233"), "\(finding)")
      }
    }
    #expect(!sink.records.isEmpty)
    for record in sink.records { #expect(!record.message.contains("00112233"), "\(record.message)") }
  }

  @Test func redactedValueMasksSecretMembersAtAnyDepth() {
    let value: JSONValue = ["type": "connect", "api_key": .string(Self.key), "nested": ["auth_response": "abcd"]]
    let text = Redaction.redacted(value).jsonText
    #expect(!text.contains(Self.key))
    #expect(!text.contains("abcd"))
    #expect(text.contains(Redaction.mask))
  }
}
