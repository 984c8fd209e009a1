/// Builds RFC 6901 JSON Pointers.
public enum JSONPointer {
  /// Escapes one reference token: `~` becomes `~0`, `/` becomes `~1`.
  public static func escape(_ token: String) -> String {
    guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
      return token
    }
    return token.replacingTokens()
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
    if pointer.isEmpty { return [] }
    guard pointer.hasPrefix("/") else { return nil }
    return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { part in
      var s = ""
      var it = part.makeIterator()
      while let c = it.next() {
        if c == "~" {
          let n = it.next()
          s.append(n == "1" ? "/" : n == "0" ? "~" : "~\(n.map(String.init) ?? "")")
        } else {
          s.append(c)
        }
      }
      return s
    }
  }
}

extension String {
  fileprivate func replacingTokens() -> String {
    var out = ""
    for c in self {
      switch c {
      case "~": out += "~0"
      case "/": out += "~1"
      default: out.append(c)
      }
    }
    return out
  }
}
