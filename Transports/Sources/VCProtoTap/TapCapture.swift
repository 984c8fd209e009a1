import Foundation

/// Numbers the tap's messages in the order they crossed (the capture's line numbers) and, with
/// `--capture`, writes their records: buffered (flushed at 64 KiB, every half second, and by
/// ``flush()`` on exit), shared by every connection under one lock, so the line numbers and the
/// file agree.
final class TapCapture: @unchecked Sendable {
  private let lock = NSLock()
  private let handle: FileHandle?
  private var buffer: [UInt8] = []
  private var lines = 0
  private var timer: DispatchSourceTimer?
  /// Set when a write failed: the capture stops, the tap goes on and says so once.
  private(set) var failure: String?

  /// Creates (or truncates) `path`; `nil`: number the messages only.
  init(path: String?) throws {
    guard let path else {
      handle = nil
      return
    }
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
      throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
    }
    handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    let timer = DispatchSource.makeTimerSource(queue: .global())
    timer.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
    timer.setEventHandler { [weak self] in self?.flush() }
    timer.resume()
    self.timer = timer
  }

  /// Appends one record; returns its line number (from 1).
  func append(_ record: [UInt8]) -> Int {
    lock.lock()
    defer { lock.unlock() }
    lines += 1
    if handle != nil, failure == nil {
      buffer.append(contentsOf: record)
      buffer.append(0x0A)
      if buffer.count >= 64 << 10 { writeBuffer() }
    }
    return lines
  }

  /// Writes what is buffered.
  func flush() {
    lock.lock()
    defer { lock.unlock() }
    writeBuffer()
  }

  private func writeBuffer() {
    guard let handle, !buffer.isEmpty, failure == nil else { return }
    do {
      try handle.write(contentsOf: buffer)
    } catch {
      failure = "\(error)"
    }
    buffer.removeAll(keepingCapacity: buffer.count <= 1 << 20)
  }
}
