import VCProtoCore
import VCProtoJSON

/// A 0.5.0 `file_signature` in fixed size: what ``FileSignature/isReplacement(seen:current:)``
/// compares, without the text. The engine keeps one per subscribed session, so a server sending
/// huge signatures costs 64 bytes per session, not the signature's length.
///
/// A signature `<byte length>:<rest>` keeps its length and `rest`; any other string keeps the whole
/// string and no length. The kept part is stored as its bytes when it has at most
/// ``inlineBytes`` of them (the real server's part is a uuid, 36 bytes: nothing to hash, and the
/// comparison is exact), else as its SHA-256. Equal strings give equal digests; distinct ones
/// collide only if SHA-256 does (no known way to find one), so the comparison is the string
/// comparison.
struct SignatureDigest: Sendable, Hashable {
  /// The most bytes of the kept part stored as they are.
  static let inlineBytes = 40

  /// The byte-length part, when the signature is `<integer>:<rest>`.
  let length: Int?
  /// The kept part's byte count (over ``inlineBytes``: the words are its SHA-256).
  let count: Int
  /// The kept part's bytes (zero-padded), or its SHA-256 in `w0`-`w3` (`w4` zero), in memory order.
  let w0: UInt64
  let w1: UInt64
  let w2: UInt64
  let w3: UInt64
  let w4: UInt64

  /// The digest of `signature`. The real server's form, `<digits>:<uuid>`, is read in one pass over
  /// its bytes, in line (``init(commonForm:)``: every 0.5.0 history frame carries a signature, and a
  /// short path evicts less of the decoder's code from the instruction cache); any other form is
  /// split as ``FileSignature`` splits it (``splitting(_:)``), which gives the same digest for every
  /// signature.
  init(_ signature: String) {
    self = SessionBytes.with(signature) { Self(commonForm: $0) } ?? Self.splitting(signature)
  }

  /// The digest of `bytes` when they are one to eighteen ASCII digits, a colon, and at most
  /// ``inlineBytes`` bytes, the first of them (if any) ASCII; `nil` otherwise. Exactly what
  /// ``splitting(_:)`` gives for such bytes: the digits are an integer no sign, overflow or later colon
  /// can change, and an ASCII byte cannot join the colon into another character.
  @inline(__always)
  private init?(commonForm bytes: UnsafeBufferPointer<UInt8>) {
    var length = 0
    var colon = 0
    while colon < bytes.count, colon < 18 {
      let digit = bytes[colon] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      length = length &* 10 &+ Int(digit)
      colon += 1
    }
    let count = bytes.count - colon - 1
    guard colon > 0, colon < bytes.count, bytes[colon] == UInt8(ascii: ":"), count <= Self.inlineBytes,
      count == 0 || bytes[colon + 1] < 0x80
    else { return nil }
    var words: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &words) { storage in
      storage.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[(colon + 1)...]))
    }
    self.init(length: length, count: count, words: words)
  }

  private init(length: Int?, count: Int, words: (UInt64, UInt64, UInt64, UInt64, UInt64)) {
    self.length = length
    self.count = count
    (w0, w1, w2, w3, w4) = words
  }

  /// The digest of any signature: split as ``FileSignature/split(_:)`` splits it (out of line: the
  /// real server's signatures take ``init(commonForm:)``).
  @inline(never)
  static func splitting(_ signature: String) -> SignatureDigest {
    var text = signature
    var words: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    // The signature's bytes split as `FileSignature.split` splits the string; when reading bytes
    // cannot decide (a non-ASCII scalar after the colon may join it into one character), the string's
    // own split decides, and the kept part is the same bytes either way.
    var split = text.withUTF8 { FileSignature.split($0) }
    if case .undecided = split {
      split = FileSignature.split(signature).map { .parsed(length: $0, restBytes: $1.utf8.count) } ?? .whole
    }
    let (length, count): (Int?, Int)
    switch split {
    case .parsed(let l, let rest): (length, count) = (l, rest)
    case .whole, .undecided: (length, count) = (nil, text.utf8.count)
    }
    text.withUTF8 { bytes in
      // The kept part is the last `count` bytes: after the colon, or the whole signature.
      let part = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[(bytes.count - count)...])
      withUnsafeMutableBytes(of: &words) { storage in
        if count <= Self.inlineBytes {
          storage.copyMemory(from: part)
        } else {
          SHA256.hash(Array(part)).withUnsafeBytes { storage.copyMemory(from: $0) }
        }
      }
    }
    return SignatureDigest(length: length, count: count, words: words)
  }

  /// `true` when `current` shows a different file than `self` (seen), as
  /// ``FileSignature/isReplacement(seen:current:)`` decides for the strings: the first-record part
  /// differs or the byte length shrank; signatures that do not parse are compared for equality.
  func isReplaced(by current: SignatureDigest) -> Bool {
    let samePart =
      count == current.count && (w0, w1, w2, w3, w4) == (current.w0, current.w1, current.w2, current.w3, current.w4)
    guard let seenLength = length, let currentLength = current.length else {
      return length != current.length || !samePart
    }
    return !samePart || currentLength < seenLength
  }
}
