import VCProtoCore
import VCProtoJSON

/// The 0.5.0 `file_signature`, `"<byte length>:<first line's uuid>"`, read as what it can tell:
/// whether the provider's file was replaced.
///
/// The real server compares signatures for equality, so a file that only grew (a new byte length)
/// counts as replaced and every resume reloads the whole session (session-behaviour hazard 1). A file
/// was replaced only when its first record changed or it got shorter; growth is normal.
public enum FileSignature {
  /// `true` when `current` shows a different file than `seen`: the first-record part differs, or the
  /// byte length shrank. Signatures that are not `<integer>:<rest>` are compared for equality.
  /// Text is compared by its exact Unicode scalars, never by canonical equivalence (`"e\u{301}"` and
  /// `"\u{e9}"` differ), as everywhere in the package (STANDARDS.md#encoding).
  public static func isReplacement(seen: String, current: String) -> Bool {
    guard let (seenLength, seenFirst) = split(seen), let (length, first) = split(current) else {
      return !seen.utf8.elementsEqual(current.utf8)
    }
    return !first.utf8.elementsEqual(seenFirst.utf8) || length < seenLength
  }

  static func split(_ signature: String) -> (Int, Substring)? {
    guard let colon = signature.firstIndex(of: ":"), let length = Int(signature[..<colon]), length >= 0 else {
      return nil
    }
    return (length, signature[signature.index(after: colon)...])
  }

  /// What ``split(_:)`` of a signature's UTF-8 bytes gives, read as bytes.
  enum ByteSplit {
    /// `<length>:<rest>`: the length, and how many bytes `rest` has (the signature's last ones).
    case parsed(length: Int, restBytes: Int)
    /// Not `<integer>:<rest>`.
    case whole
    /// The bytes cannot decide: the first colon is followed by a non-ASCII scalar, which may extend it
    /// into a character other than `":"`; split the string instead.
    case undecided
  }

  /// ``split(_:)`` over UTF-8 bytes, without building characters or substrings: the first `:` byte,
  /// an integer of ASCII digits (optionally signed, as `Int(_:)` reads it) before it, non-negative.
  /// The same as the string's split: when the bytes before the first `:` are such an integer, the
  /// colon is a character of its own unless a non-ASCII scalar follows it (``ByteSplit/undecided``);
  /// when they are not, no later colon can have an integer before it either.
  static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> ByteSplit {
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return .whole }
    guard let value = IntegerLiteral.value(of: UnsafeBufferPointer(rebasing: bytes[..<colon])),
      let length = Int(exactly: value), length >= 0
    else { return .whole }
    if colon + 1 < bytes.count, bytes[colon + 1] >= 0x80 { return .undecided }
    return .parsed(length: length, restBytes: bytes.count - colon - 1)
  }
}
