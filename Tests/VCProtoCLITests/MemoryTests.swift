import Foundation
import Testing
import VCProto

@testable import VCProtoCLI
@testable import VCProtoCapture

@Suite(.tags(.slow), .enabled(if: slowSuitesRun)) struct MemoryTests {
  /// A multi-megabyte capture goes through the streaming reader holding at most one line plus one
  /// chunk: the buffer's high-water mark is independent of the file size.
  @Test func readerMemoryStaysFlat() throws {
    var text = ""
    var longest = 0
    for i in 0..<40_000 {
      let padding = String(repeating: "é", count: i % 97)
      let frame =
        #"{"type":"command_output","command_session_id":"cmd-\#(i)","stream":"stdout","text":"line \#(i) \#(padding)"}"#
      let record =
        #"{"direction":"server_to_client","time":\#(1_768_122_902 + i),"data":\#(JSONValue.string(frame).jsonText)}"#
      longest = max(longest, record.utf8.count)
      text += record + "\n"
    }
    let url = temporaryFile(text, name: "big.jsonl")
    let size = text.utf8.count
    #expect(size > 8_000_000)
    let chunk = 64 * 1024
    let reader = JSONLinesReader(source: ByteSource.open(path: url.path)!, chunkSize: chunk)
    var frames = 0
    var errors = 0
    let validation = CaptureValidation(
      checker: FrameChecker(directionOverride: nil, strict: false, opener: .standard), defaultVersion: .v0_2_0)
    try validation.run(reader) { outcome in
      frames += 1
      errors += outcome.isValid ? 0 : 1
    }
    #expect(frames == 40_000)
    #expect(errors == 0)
    #expect(reader.lines.highWaterMark <= longest + 1 + chunk)
    #expect(reader.lines.highWaterMark < size / 20)
  }
}
