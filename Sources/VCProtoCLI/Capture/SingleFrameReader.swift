import VCProto

/// The whole input is one frame, byte for byte (a binary envelope when it starts with `VC`).
final class SingleFrameReader: CaptureReader {
  private let source: ByteSource
  private let maxBytes: Int
  private var done = false

  init(source: ByteSource, maxBytes: Int = CaptureLimits.default.maxSingleFrameBytes) {
    self.source = source
    self.maxBytes = maxBytes
  }

  var bytesRead: Int { source.bytesRead }

  func next() throws -> CapturedFrame? {
    guard !done else { return nil }
    done = true
    var bytes: [UInt8] = []
    while true {
      let chunk = try source.read(upTo: 64 * 1024)
      if chunk.isEmpty { break }
      bytes.append(contentsOf: chunk)
      if bytes.count > maxBytes {
        return CapturedFrame(
          position: .entry(0), payload: nil,
          findings: [
            Finding(.error, .frameTooLarge, pointer: "", message: "frame is larger than \(maxBytes) bytes")
          ])
      }
    }
    let isEnvelope = bytes.count >= 2 && bytes[0] == UInt8(ascii: "V") && bytes[1] == UInt8(ascii: "C")
    return CapturedFrame(position: .entry(0), payload: isEnvelope ? .binary(bytes) : .text(bytes))
  }
}
