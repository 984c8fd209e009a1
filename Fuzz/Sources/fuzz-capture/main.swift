@testable import FuzzDriver
import VCProtoCLI

/// The capture readers (JSON Lines and HAR) on arbitrary bytes: every frame they yield is bounded by
/// the input, and reading always ends.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  for reader in [
    JSONLinesReader(source: ByteSource(bytes: bytes), chunkSize: 7, maxLineLength: 4096) as CaptureReader,
    HARReader(source: ByteSource(bytes: bytes), chunkSize: 7, maxMessageBytes: 4096),
  ] {
    var frames = 0
    while let _ = try? reader.next() {
      frames += 1
      precondition(frames <= size + 2, "reader does not terminate")
    }
  }
  return 0
}

runFuzzer(fuzzOne)
