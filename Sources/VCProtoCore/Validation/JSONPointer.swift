import VCProtoJSON

/// Builds RFC 6901 JSON Pointers.
///
/// Pointers are handled as Unicode scalars, never as `Character`s: a member name may begin with a
/// combining mark, which would otherwise merge with the preceding `/` into one grapheme and hide it.
public enum JSONPointer {
  /// Escapes one reference token: `~` becomes `~0`, `/` becomes `~1`.
  public static func escape(_ token: String) -> String {
    guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
      return token
    }
    var out = String.UnicodeScalarView()
    for scalar in token.unicodeScalars {
      switch scalar {
      case "~": out.append(contentsOf: "~0".unicodeScalars)
      case "/": out.append(contentsOf: "~1".unicodeScalars)
      default: out.append(scalar)
      }
    }
    return String(out)
  }

  /// Appends a member name to a pointer.
  public static func appending(_ pointer: String, key: String) -> String {
    pointer + "/" + escape(key)
  }

  /// Appends an array index to a pointer.
  public static func appending(_ pointer: String, index: Int) -> String {
    pointer + "/" + String(index)
  }

  /// Splits a pointer into unescaped tokens (`nil` when it does not start with `/` and is not empty).
  public static func tokens(_ pointer: String) -> [String]? {
    let scalars = pointer.unicodeScalars
    guard let first = scalars.first else { return [] }
    guard first == "/" else { return nil }
    return scalars.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { part in
      var token = String.UnicodeScalarView()
      var it = part.makeIterator()
      while let scalar = it.next() {
        guard scalar == "~" else {
          token.append(scalar)
          continue
        }
        switch it.next() {
        case "1": token.append("/")
        case "0": token.append("~")
        case let other?:
          token.append("~")
          token.append(other)
        case nil: token.append("~")
        }
      }
      return String(token)
    }
  }
}
