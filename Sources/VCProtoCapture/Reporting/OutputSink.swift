import Foundation
import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// Where a command writes text: standard output, standard error, or a buffer in tests.
///
/// Writes are serialized by a lock, so one sink may be shared between tasks.
public final class OutputSink: Sendable {
  private let handle: FileHandle?
  /// The kept text of a buffering sink; its lock also serializes writes to the handle.
  private let buffer = Locked<[UInt8]>([])

  /// A sink that writes through to a file handle.
  public init(handle: FileHandle) {
    self.handle = handle
  }

  /// A sink that keeps everything written (see ``text``).
  public init() {
    self.handle = nil
  }

  /// Writes bytes.
  public func write(_ bytes: [UInt8]) {
    buffer.withLock { buffer in
      if let handle {
        handle.write(Data(bytes))
      } else {
        buffer.append(contentsOf: bytes)
      }
    }
  }

  /// Writes text as UTF-8.
  public func write(_ text: String) {
    write(Array(text.utf8))
  }

  /// Writes text followed by a newline.
  public func line(_ text: String = "") {
    write(Array((text + "\n").utf8))
  }

  /// Everything written so far, for a buffering sink (empty for a file sink).
  public var text: String {
    buffer.withLock { String(decoding: $0, as: UTF8.self) }
  }
}
