import Foundation
import Testing
import VCProto

@testable import VCProtoCLI
@testable import VCProtoCapture

/// The capture readers' bounds (``CaptureLimits``): each gives its own finding, never unbounded memory.
@Suite struct CaptureLimitTests {
  let ping = #"{"type":"send","time":1768122903,"opcode":1,"data":"{\"type\":\"ping\"}"}"#

  /// A HAR whose one message sits 6 levels deep: log object, log, entries, entry, messages, message.
  func har(_ message: String) -> [UInt8] {
    Array(#"{"log":{"entries":[{"_webSocketMessages":[\#(message)]}]}}"#.utf8)
  }

  @Test func harScannerDepthIsCappedAndStopsReading() throws {
    // 30 MB of '[' used to grow the scanner's stack to ~56 MB. Now the scan stops at the bound, having
    // read no more than one chunk: memory is the chunk plus 1024 small stack entries.
    let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 30_000_000)
    let source = ByteSource(bytes: bytes)
    let reader = HARReader(source: source)
    let items = try readAll(reader)
    #expect(items.count == 1)
    #expect(items[0].isFrame == false)
    #expect(items[0].findings.map(\.code) == [.nestingTooDeep])
    #expect(items[0].findings[0].message.hasPrefix("HAR nests deeper than 1024 levels near byte 1024"))
    #expect(reader.bytesRead <= 64 * 1024)
  }

  @Test func harDepthBoundIsExact() throws {
    let atLimit = try readAll(HARReader(source: ByteSource(bytes: har(ping)), chunkSize: 3, maxDepth: 6))
    #expect(atLimit.count == 1)
    #expect(atLimit[0].isFrame && atLimit[0].findings.isEmpty)
    let below = try readAll(HARReader(source: ByteSource(bytes: har(ping)), chunkSize: 3, maxDepth: 5))
    #expect(below.map { $0.findings.map(\.code) } == [[.nestingTooDeep]])
    #expect(below[0].isFrame == false)
  }

  @Test func tooDeepHARMessageKeepsTheReadersCode() throws {
    // The message object itself nests past JSONLimits.maxDepth (128): the finding is the JSON reader's
    // `nesting_too_deep`, not a generic `invalid_record`, and reading goes on.
    let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    let message = #"{"type":"send","time":1,"opcode":1,"data":"{\"type\":\"ping\"}","x":\#(deep)}"#
    let items = try readAll(
      HARReader(
        source: ByteSource(bytes: Array(#"{"log":{"entries":[{"_webSocketMessages":[\#(message),\#(ping)]}]}}"#.utf8))))
    #expect(items.count == 2)
    #expect(items[0].findings.map(\.code) == [.nestingTooDeep])
    #expect(items[0].isFrame)
    #expect(text(items[1]) == #"{"type":"ping"}"#)
    let duplicate = #"{"type":"send","opcode":1,"data":"{}","data":"{}"}"#
    let dup = try readAll(HARReader(source: ByteSource(bytes: har(duplicate))))
    #expect(dup.map { $0.findings.map(\.code) } == [[.duplicateKey]])
  }

  @Test func harMessageSizeBound() throws {
    let items = try readAll(HARReader(source: ByteSource(bytes: har("\(ping),\(ping)")), maxMessageBytes: 40))
    #expect(items.map { $0.findings.map(\.code) } == [[.frameTooLarge], [.frameTooLarge]])
    #expect(items.allSatisfy { $0.isFrame })
  }

  @Test func defaultsAreTheDocumentedOnes() {
    #expect(CaptureLimits.default.maxLineBytes == 32 * 1024 * 1024)
    #expect(CaptureLimits.default.maxHARMessageBytes == 64 * 1024 * 1024)
    #expect(CaptureLimits.default.maxHARDepth == 1024)
    #expect(CaptureLimits.default.maxSingleFrameBytes == JSONLimits.default.maxFrameBytes)
  }

  @Test func limitsAreCommandLineOptions() {
    let long = temporaryFile(
      "{\"type\":\"prompt\",\"text\":\"" + String(repeating: "x", count: 200) + "\"}\n{\"type\":\"ping\"}\n",
      name: "long.jsonl")
    let normal = runCommand(["validate", long.path])
    #expect(normal.status == 0)
    let capped = runCommand(["validate", "--max-line-length", "100", long.path])
    #expect(capped.status == 1)
    #expect(capped.out.contains("\(long.path):1: - (root): error: line is longer than 100 bytes"))
    #expect(capped.out.contains("[line_too_long]"))
    let capture = temporaryFile(bytes: har(ping), name: "c.har")
    #expect(runCommand(["validate", capture.path]).status == 0)
    let small = runCommand(["validate", "--max-har-message-size=40", capture.path])
    #expect(small.status == 1)
    #expect(small.out.contains("[frame_too_large]"))
    for bad in ["0", "-5", "lots"] {
      let r = runCommand(["validate", "--max-line-length=\(bad)", long.path])
      #expect(r.status == 2)
      #expect(r.err.contains("invalid value '\(bad)' for '--max-line-length'"))
    }
    let help = runCommand(["validate", "--help"]).out
    #expect(help.contains("--max-line-length <bytes>"))
    #expect(help.contains("--max-har-message-size <bytes>"))
  }

  @Test func deepHARThroughTheCommand() {
    let url = temporaryFile(String(repeating: "[", count: 5000), name: "deep.har")
    let r = runCommand(["validate", "--format", "json", url.path])
    #expect(r.status == 1)
    #expect(r.out.contains(#""code":"nesting_too_deep""#))
  }
}

@Suite struct LargeLineTests {
  /// A 10 MB single line through the JSON Lines reader itself (not only the validator): the payload
  /// arrives whole and byte for byte, whether bare or inside a record, and the next line still reads.
  @Test func tenMegabyteLineThroughTheReader() throws {
    let body = String(repeating: "abcdefghij", count: 1_000_000)
    let frame = #"{"type":"command_output","command_session_id":"c","stream":"stdout","text":"\#(body)"}"#
    let record = #"{"direction":"server_to_client","time":1,"data":\#(JSONValue.string(frame).jsonText)}"#
    #expect(frame.utf8.count > 10_000_000)
    let input = Array((frame + "\n" + record + "\n{\"type\":\"ping\"}\n").utf8)
    let reader = JSONLinesReader(source: ByteSource(bytes: input))
    let items = try readAll(reader)
    #expect(items.count == 3)
    #expect(items[0].position == .line(1))
    #expect(items[0].payload == .text(Array(frame.utf8)))
    #expect(items[1].position == .line(2))
    #expect(items[1].direction == .serverToClient)
    #expect(items[1].payload == .text(Array(frame.utf8)))
    #expect(text(items[2]) == #"{"type":"ping"}"#)
    #expect(items.allSatisfy { $0.findings.isEmpty })
    // Held: one line plus one chunk, never the whole input.
    #expect(reader.lines.highWaterMark <= record.utf8.count + 1 + 64 * 1024)

    // Below the bound the same line is skipped with its own finding, and reading goes on.
    let capped = try readAll(JSONLinesReader(source: ByteSource(bytes: input), maxLineLength: 1_000_000))
    #expect(capped.map { $0.findings.map(\.code) } == [[.lineTooLong], [.lineTooLong], []])
    #expect(text(capped[2]) == #"{"type":"ping"}"#)
  }
}
