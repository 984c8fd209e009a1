import Testing
import VCProto

@testable import VCProtoCLI
@testable import VCProtoCapture

/// The line splitter hands out lines as slices of the blocks it reads (no copy per line): lines held
/// while later ones are read keep their bytes, whatever the chunk size, with bytes pushed back
/// (format sniffing) read first and the buffer bounded by one line plus one chunk.
@Suite struct LineSplitterBlockTests {
  @Test func heldLinesKeepTheirBytes() throws {
    let lines = (0..<60).map { i in
      String(repeating: Character(Unicode.Scalar(UInt8(97 + i % 26))), count: i * 7 % 41)
    }
    let text = lines.joined(separator: "\n") + "\n"
    for chunk in [1, 2, 3, 7, 16, 40, 64, 4096] {
      let source = ByteSource(bytes: Array(text.utf8))
      source.unread(Array("pushed\r\n".utf8))
      let splitter = LineSplitter(source: source, chunkSize: chunk, maxLineLength: 1000)
      var held: [ArraySlice<UInt8>] = []
      while let line = try splitter.next() {
        guard case .line(_, let bytes) = line else {
          Issue.record("a line was too long")
          return
        }
        held.append(bytes)
      }
      #expect(held.map { String(decoding: $0, as: UTF8.self) } == ["pushed"] + lines, "chunk \(chunk)")
      #expect(splitter.highWaterMark <= 41 + chunk, "chunk \(chunk)")
      #expect(splitter.bytesRead == text.utf8.count)  // the pushed-back bytes count once read, less once pushed back
    }
  }
}
