import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// The whole input is one frame, byte for byte (a binary envelope when it starts with `VC`).
public final class SingleFrameReader: CaptureReader {
  private let source: ByteSource
  private let maxBytes: Int
  private var done = false

  /// Reads all of `source` as one frame; an input of more than `maxBytes` bytes gives
  /// `frame_too_large` instead (see ``CaptureLimits/maxSingleFrameBytes``).
  public init(source: ByteSource, maxBytes: Int = CaptureLimits.default.maxSingleFrameBytes) {
    self.source = source
    self.maxBytes = maxBytes
  }

  /// Bytes consumed so far.
  public var bytesRead: Int { source.bytesRead }

  /// The frame, then `nil`.
  public func next() throws -> CapturedFrame? {
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
