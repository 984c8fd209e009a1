internal import CZlib
import VCProtoCore
import VCProtoJSON

/// A thin owner of one zlib deflate stream.
///
/// The `z_stream` lives at a fixed heap address for the whole lifetime of the value
/// (zlib keeps a back pointer to it and refuses a moved stream), and the type is
/// noncopyable so `deflateEnd` runs exactly once, in `deinit`, on every path.
struct Deflater: ~Copyable {
  /// Output is produced in pieces of at most this many bytes.
  static let chunkSize = 256 * 1024

  private let stream: UnsafeMutablePointer<z_stream>

  /// Starts a stream producing `encoding` at `level` (0...9; the caller clamps).
  init(encoding: EnvelopeEncoding, level: Int32) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    let status = vcproto_deflateInit2(stream, level, encoding.windowBits)
    // Only Z_MEM_ERROR (allocation failure, which Swift itself treats as fatal) or a
    // header/library version mismatch (a build error) can make this fail.
    precondition(status == Z_OK, "deflateInit2 failed with zlib status \(status)")
  }

  deinit {
    deflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  /// Compresses `input` and appends the produced bytes to `output`; with `finish`,
  /// also flushes and writes the stream trailer. Output is produced in chunks of
  /// ``chunkSize`` through a scratch buffer.
  mutating func compress(
    _ input: UnsafeRawBufferPointer, finish: Bool, appendingTo output: inout [UInt8]
  ) {
    let stream = self.stream
    let scratch = UnsafeMutablePointer<Bytef>.allocate(capacity: Self.chunkSize)
    defer { scratch.deallocate() }
    var offset = 0
    var done = false
    while !done {
      if stream.pointee.avail_in == 0 && offset < input.count, let base = input.baseAddress {
        let piece = min(input.count - offset, Int(UInt32.max))
        stream.pointee.next_in = UnsafeMutablePointer(
          mutating: base.assumingMemoryBound(to: Bytef.self) + offset)
        stream.pointee.avail_in = UInt32(piece)
        offset += piece
      }
      let flush = finish && offset == input.count ? Z_FINISH : Z_NO_FLUSH
      stream.pointee.next_out = scratch
      stream.pointee.avail_out = UInt32(Self.chunkSize)
      let status = deflate(stream, flush)
      let produced = Self.chunkSize - Int(stream.pointee.avail_out)
      output.append(contentsOf: UnsafeBufferPointer(start: scratch, count: produced))
      switch status {
      case Z_STREAM_END:
        done = true
      case Z_OK, Z_BUF_ERROR:
        // Not finishing: stop once all input is consumed and zlib has spare output room.
        done =
          !finish && offset == input.count && stream.pointee.avail_in == 0
          && stream.pointee.avail_out != 0
      default:
        preconditionFailure("deflate failed with zlib status \(status)")
      }
    }
  }

  /// One-shot compression into a fresh array that starts with `headerSize`
  /// zero bytes reserved for the caller (so the envelope header is written in place and
  /// the compressed stream is never copied).
  static func compress(
    _ input: [UInt8], encoding: EnvelopeEncoding, level: Int32, reservingHeader headerSize: Int
  ) -> [UInt8] {
    let deflater = Deflater(encoding: encoding, level: level)
    return deflater.compressWhole(input, reservingHeader: headerSize)
  }

  /// Compresses all of `input` with `Z_FINISH` into a buffer sized by `deflateBound`,
  /// writing chunk by chunk. The stream is ended when the caller's value goes away.
  private func compressWhole(_ input: [UInt8], reservingHeader headerSize: Int)
    -> [UInt8]
  {
    precondition(input.count <= Int(UInt32.max), "frame too large for one deflate call")
    let bound = Int(deflateBound(stream, uLong(input.count)))
    let stream = self.stream
    return input.withUnsafeBufferPointer { source in
      stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
      stream.pointee.avail_in = UInt32(input.count)
      return [UInt8](unsafeUninitializedCapacity: headerSize + bound) { buffer, count in
        guard let base = buffer.baseAddress else {
          count = 0
          return
        }
        base.initialize(repeating: 0, count: headerSize)
        var written = headerSize
        var status = Z_OK
        while status == Z_OK || status == Z_BUF_ERROR {
          let room = min(Self.chunkSize, buffer.count - written)
          stream.pointee.next_out = base + written
          stream.pointee.avail_out = UInt32(room)
          status = deflate(stream, Z_FINISH)
          written += room - Int(stream.pointee.avail_out)
          if status == Z_BUF_ERROR && room == 0 { break }
        }
        precondition(status == Z_STREAM_END, "deflate did not finish: zlib status \(status)")
        count = written
      }
    }
  }
}
