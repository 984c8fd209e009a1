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
    if !pushedBack.isEmpty {
      let n = min(count, pushedBack.count)
      let out = Array(pushedBack[..<n])
      pushedBack.removeFirst(n)
      bytesRead += n
      return out
    }
    if let handle {
      // read(2) straight into the array: no intermediate Data and no second copy.
      var failure: Int32 = 0
      let out = [UInt8](unsafeUninitializedCapacity: max(1, count)) { buffer, filled in
        filled = 0
        while true {
          let n = systemRead(handle.fileDescriptor, buffer.baseAddress, count)
          if n >= 0 {
            filled = n
            return
          }
          guard errno == EINTR else {
            failure = errno
            return
          }
        }
      }
      if failure != 0 { throw CocoaError(.fileReadUnknown, userInfo: ["errno": Int(failure)]) }
      bytesRead += out.count
      return out
    }
    let n = min(count, memory.count - memoryOffset)
    let out = Array(memory[memoryOffset..<(memoryOffset + n)])
    memoryOffset += n
    bytesRead += n
    return out
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
