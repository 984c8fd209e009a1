import Foundation

/// A capture's bytes, read in chunks, never whole: a file (``open(path:)``) or bytes in memory.
///
/// Not thread-safe: one reader uses it at a time. Bytes handed back with ``unread(_:)`` (after format
/// sniffing) are returned first.
public final class ByteSource {
  private let handle: FileHandle?
  private var memory: [UInt8]
  private var memoryOffset = 0
  private var pushedBack: [UInt8] = []
  /// The input's size when known (a regular file), for progress.
  package let knownSize: Int?
  /// Bytes consumed so far (excluding bytes pushed back).
  private(set) var bytesRead = 0

  /// Reads from a file handle; `size` is the file size when known.
  package init(handle: FileHandle, size: Int? = nil) {
    self.handle = handle
    self.memory = []
    self.knownSize = size
  }

  /// Reads from bytes already in memory (tests, decoded frames).
  public init(bytes: [UInt8]) {
    self.handle = nil
    self.memory = bytes
    self.knownSize = bytes.count
  }

  /// Opens a file for streaming; `nil` when it cannot be opened (missing, a directory, no permission).
  public static func open(path: String) -> ByteSource? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
      return nil
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
    return ByteSource(handle: handle, size: size)
  }

  /// Why ``open(path:)`` failed for `path`, in a few words.
  package static func whyUnreadable(_ path: String) -> String {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file" }
    if isDirectory.boolValue { return "is a directory" }
    return FileManager.default.isReadableFile(atPath: path) ? "cannot be opened" : "permission denied"
  }

  /// Up to `count` bytes; an empty array at the end of the input.
  func read(upTo count: Int) throws -> [UInt8] {
    var failure: Error?
    let out = [UInt8](unsafeUninitializedCapacity: max(1, count)) { buffer, filled in
      do {
        filled = try read(into: UnsafeMutableBufferPointer(rebasing: buffer[..<count]))
      } catch {
        failure = error
        filled = 0
      }
    }
    if let failure { throw failure }
    return out
  }

  /// Fills the start of `buffer` with the next bytes (one `read(2)` at most: fewer bytes than it holds
  /// when the input has fewer ready) and says how many; 0 at the end of the input or for an empty buffer.
  func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    if !pushedBack.isEmpty {
      let n = min(buffer.count, pushedBack.count)
      pushedBack.withUnsafeBufferPointer { base.initialize(from: $0.baseAddress!, count: n) }
      pushedBack.removeFirst(n)
      bytesRead += n
      return n
    }
    if let handle {
      // read(2) straight into the caller's memory: no intermediate Data and no second copy.
      while true {
        let n = systemRead(handle.fileDescriptor, base, buffer.count)
        if n >= 0 {
          bytesRead += n
          return n
        }
        let failure = errno
        guard failure == EINTR else { throw CocoaError(.fileReadUnknown, userInfo: ["errno": Int(failure)]) }
      }
    }
    let n = min(buffer.count, memory.count - memoryOffset)
    guard n > 0 else { return 0 }
    memory.withUnsafeBufferPointer { base.initialize(from: $0.baseAddress! + memoryOffset, count: n) }
    memoryOffset += n
    bytesRead += n
    return n
  }

  /// Returns bytes to the front of the input (they are read again next).
  func unread(_ bytes: [UInt8]) {
    pushedBack = bytes + pushedBack
    bytesRead -= bytes.count
  }
}

/// The C library's `read(2)` (a file-level name: inside ``ByteSource`` `read` is its own method).
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}
