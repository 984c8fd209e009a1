/// A 0.5.0 `file_signature` in fixed size: what ``FileSignature/isReplacement(seen:current:)``
/// compares, without the text. The engine keeps one per subscribed session, so a server sending
/// huge signatures costs 48 bytes per session, not the signature's length.
///
/// A signature `<byte length>:<rest>` keeps its length and the SHA-256 of `rest`; any other string
/// keeps the SHA-256 of the whole string and no length. Equal strings give equal digests; distinct
/// ones collide only if SHA-256 does (no known way to find one), so the comparison is the string
/// comparison.
struct SignatureDigest: Sendable, Hashable {
  /// The byte-length part, when the signature is `<integer>:<rest>`.
  let length: Int?
  /// SHA-256 of the first-record part (of the whole signature when it does not parse), big-endian words.
  let w0: UInt64
  let w1: UInt64
  let w2: UInt64
  let w3: UInt64

  init(_ signature: String) {
    let hashed: [UInt8]
    if let (length, rest) = FileSignature.split(signature) {
      self.length = length
      hashed = SHA256.hash(Array(rest.utf8))
    } else {
      length = nil
      hashed = SHA256.hash(Array(signature.utf8))
    }
    func word(_ at: Int) -> UInt64 { hashed[at..<at + 8].reduce(0) { $0 << 8 | UInt64($1) } }
    (w0, w1, w2, w3) = (word(0), word(8), word(16), word(24))
  }

  /// `true` when `current` shows a different file than `self` (seen), as
  /// ``FileSignature/isReplacement(seen:current:)`` decides for the strings: the first-record part
  /// differs or the byte length shrank; signatures that do not parse are compared for equality.
  func isReplaced(by current: SignatureDigest) -> Bool {
    guard let seenLength = length, let currentLength = current.length else { return self != current }
    return (w0, w1, w2, w3) != (current.w0, current.w1, current.w2, current.w3) || currentLength < seenLength
  }
}
