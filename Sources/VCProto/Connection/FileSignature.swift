/// The 0.5.0 `file_signature`, `"<byte length>:<first line's uuid>"`, read as what it can tell:
/// whether the provider's file was replaced.
///
/// The real server compares signatures for equality, so a file that only grew (a new byte length)
/// counts as replaced and every resume reloads the whole session (session-behaviour hazard 1). A file
/// was replaced only when its first record changed or it got shorter; growth is normal.
public enum FileSignature {
  /// `true` when `current` shows a different file than `seen`: the first-record part differs, or the
  /// byte length shrank. Signatures that are not `<integer>:<rest>` are compared for equality.
  public static func isReplacement(seen: String, current: String) -> Bool {
    guard let (seenLength, seenFirst) = split(seen), let (length, first) = split(current) else {
      return seen != current
    }
    return first != seenFirst || length < seenLength
  }

  static func split(_ signature: String) -> (Int, Substring)? {
    guard let colon = signature.firstIndex(of: ":"), let length = Int(signature[..<colon]), length >= 0 else {
      return nil
    }
    return (length, signature[signature.index(after: colon)...])
  }
}
