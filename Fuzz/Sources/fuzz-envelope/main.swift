import FuzzDriver
import VCProto

/// Envelope opening on arbitrary bytes, in both forms: never a crash, never more output than the
/// limits allow, and a sealed frame always opens to itself.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let limits = EnvelopeLimits(maxInflatedSize: 1 << 20, maxCompressionRatio: 1000, maxCompressedSize: 1 << 20)
  let codec = EnvelopeCodec(limits: limits)
  if let opened = try? codec.open(binary: bytes) {
    precondition(opened.count <= limits.maxInflatedSize, "inflated past the cap")
  }
  // Text form: the same bytes as base64 data with a length taken from the first bytes.
  let length = bytes.prefix(3).reduce(0) { $0 << 8 | Int($1) }
  _ = try? codec.open(
    text: size % 2 == 0 ? "zlib" : "gzip", length: length, data: String(decoding: bytes, as: UTF8.self))
  if size >= 1024, let sealed = try? codec.seal(bytes, form: .binary) {
    precondition((try? codec.open(binary: sealed)) == bytes, "seal/open round trip failed")
  }
  return 0
}

runFuzzer(fuzzOne)
