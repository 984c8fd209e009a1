import Foundation
import Testing

@testable import VCProto

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

  @Test func silentByDefault() {
    // The default logger drops everything: nothing to observe but that it does not crash and
    // that the default is the shared silent instance.
    #expect(Validator().logger === ProtocolLogger.silent)
    #expect(ProtocolLogger.silent.minimumLevel == .error)
  }

  @Test func everyMissingFieldLogsOneLineNamingTypeAndField() {
    let sink = RecordingSink()
    let frame =
      #"{"type":"command_output_full","command_session_id":"cmd-1","output":"","timestamp":"2026-01-11T17:25:32Z","command_id":"git.status"}"#
    _ = Validator(logger: sink.logger(.info)).validate(frame)
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
    let report = Validator(logger: sink.logger(.warning)).validate(frame)
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

  @Test func unknownTypesAreLoggedOncePerType() {
    let sink = RecordingSink()
    let validator = Validator(logger: sink.logger(.info))
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
      let report = Validator(logger: sink.logger(.debug)).validate(frame)
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
      let report = Validator(logger: sink.logger(.debug)).validate(frame)
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
