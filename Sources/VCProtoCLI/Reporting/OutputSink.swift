import Foundation

/// Where a command writes text: standard output, standard error, or a buffer in tests.
///
/// Writes are serialized by a lock, so one sink may be shared between tasks.
public final class OutputSink: @unchecked Sendable {
  private let lock = NSLock()
  private let handle: FileHandle?
  private var buffer: [UInt8] = []

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
    lock.lock()
    defer { lock.unlock() }
    if let handle {
      handle.write(Data(bytes))
    } else {
      buffer.append(contentsOf: bytes)
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
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: buffer, as: UTF8.self)
  }
}
