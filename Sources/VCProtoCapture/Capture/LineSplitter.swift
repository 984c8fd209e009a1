import Foundation

/// Splits a byte stream into lines, reading fixed-size chunks and holding at most one line plus one
/// chunk in memory. A line longer than ``maxLineLength`` is reported and skipped to its end.
///
/// The input is read into blocks (a chunk, after the unfinished line the last block ended with) and
/// each line is handed out as a slice of its block, not copied: a block is never changed once a
/// line of it was handed out, so a line stays valid as long as its holder keeps it.
package final class LineSplitter {
  /// One result of ``next()``.
  enum Line {
    /// A line's bytes (without `\n` or a trailing `\r`) and its 1-based number.
    case line(number: Int, bytes: ArraySlice<UInt8>)
    /// The line with this number was longer than the bound; its bytes were dropped.
    case tooLong(number: Int, length: Int)
  }

  private let source: ByteSource
  let chunkSize: Int
  let maxLineLength: Int
  private var buffer: [UInt8] = []
  private var start = 0
  private var scanned = 0
  private var lineNumber = 0
  private var atEnd = false
  private var skipping = false
  /// The largest the internal buffer ever was, in bytes (memory stays flat: at most one line and
  /// one chunk).
  private(set) var highWaterMark = 0

  init(source: ByteSource, chunkSize: Int = 64 * 1024, maxLineLength: Int = CaptureLimits.default.maxLineBytes) {
    self.source = source
    self.chunkSize = max(1, chunkSize)
    self.maxLineLength = maxLineLength
  }

  /// The next line, or `nil` at the end of the input. A last line without `\n` is still returned.
  func next() throws -> Line? {
    while true {
      if let newline = Self.firstNewline(in: buffer, from: scanned) {
        let from = start
        start = newline + 1
        scanned = start
        if skipping {
          skipping = false
          continue
        }
        lineNumber += 1
        var end = newline
        if end > from, buffer[end - 1] == 0x0D { end -= 1 }
        // The bound is exact, however the line fell across chunks.
        if end - from > maxLineLength { return .tooLong(number: lineNumber, length: end - from) }
        return .line(number: lineNumber, bytes: buffer[from..<end])
      }
      scanned = buffer.count
      // (+ 1: a line of exactly the bound may still end in `\r\n`.)
      if !skipping, buffer.count - start > maxLineLength + 1 {
        lineNumber += 1
        skipping = true
        let length = buffer.count - start
        buffer = []
        start = 0
        scanned = 0
        return .tooLong(number: lineNumber, length: length)
      }
      if skipping {
        buffer = []
        start = 0
        scanned = 0
      }
      if atEnd {
        guard start < buffer.count, !skipping else { return nil }
        lineNumber += 1
        let from = start
        start = buffer.count
        scanned = start
        var end = buffer.count
        if buffer[end - 1] == 0x0D { end -= 1 }
        if end - from > maxLineLength { return .tooLong(number: lineNumber, length: end - from) }
        return .line(number: lineNumber, bytes: buffer[from..<end])
      }
      try refill()
    }
  }

  /// Reads more of the input after the unfinished line (``start`` to the end of the buffer).
  private func refill() throws {
    let tail = buffer.count - start
    if start == 0, tail > 0 {
      // The block is one unfinished line, of which nothing was handed out: it grows in place
      // (geometrically; only lines longer than a chunk get here).
      let chunk = try source.read(upTo: chunkSize)
      if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
    } else {
      // A new block: the unfinished line's bytes, then the input read straight after them. The lines
      // handed out keep the old block alive as long as they are held.
      var count = 0
      var failure: Error?
      let block = [UInt8](unsafeUninitializedCapacity: tail + chunkSize) { block, filled in
        if tail > 0 {
          buffer.withUnsafeBufferPointer { block.baseAddress!.initialize(from: $0.baseAddress! + start, count: tail) }
        }
        do {
          count = try source.read(into: UnsafeMutableBufferPointer(rebasing: block[tail...]))
        } catch {
          failure = error
        }
        filled = tail + count
      }
      if let failure { throw failure }
      buffer = block
      start = 0
      scanned = tail
      if count == 0 { atEnd = true }
    }
    highWaterMark = max(highWaterMark, buffer.count)
  }

  var bytesRead: Int { source.bytesRead }

  /// The index of the first `\n` at or after `from` (`memchr`, not a byte-by-byte loop).
  private static func firstNewline(in buffer: [UInt8], from: Int) -> Int? {
    buffer.withUnsafeBytes { raw -> Int? in
      guard let base = raw.baseAddress, from < raw.count else { return nil }
      guard let hit = memchr(base + from, 0x0A, raw.count - from) else { return nil }
      return base.distance(to: UnsafeRawPointer(hit))
    }
  }
}
