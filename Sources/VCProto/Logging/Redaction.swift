/// Keeps secrets out of logs, findings, excerpts and CLI output.
///
/// A member is secret when the catalog marks it so (`api_key`, `auth_response`); in addition, any
/// text shaped like a voice-code API key (`untethered-` followed by hex) is masked wherever it appears.
public enum Redaction {
  /// What a secret value is replaced with.
  public static let mask = "«redacted»"

  /// The JSON names of every member any catalog marks secret.
  public static let secretFieldNames: Set<String> = {
    var names: Set<String> = []
    for catalog in ProtocolCatalog.all {
      for message in catalog.messages { for f in message.fields where f.secret { names.insert(f.name) } }
      for shape in catalog.shapes.values { for f in shape.fields where f.secret { names.insert(f.name) } }
    }
    return names
  }()

  /// Returns `value` with every secret member (at any depth) replaced by ``mask``.
  public static func redacted(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(var object):
      for i in object.members.indices {
        if secretFieldNames.contains(object.members[i].key), !object.members[i].value.isNull {
          object.members[i].value = .string(mask)
        } else {
          object.members[i].value = redacted(object.members[i].value)
        }
      }
      return .object(object)
    case .array(let items):
      return .array(items.map(redacted))
    case .string(let s):
      return .string(maskingKeyShapedText(s))
    default:
      return value
    }
  }

  /// Masks secrets in raw frame text that may not even parse: the string value after any secret
  /// member name, and anything shaped like an API key.
  public static func redactedText(_ text: String) -> String {
    var bytes = Array(text.utf8)
    for name in secretFieldNames {
      let needle = Array("\"\(name)\"".utf8)
      var i = 0
      while let at = find(needle, in: bytes, from: i) {
        var j = at + needle.count
        while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0A || bytes[j] == 0x0D { j += 1 }
        guard j < bytes.count, bytes[j] == UInt8(ascii: ":") else {
          i = at + 1
          continue
        }
        j += 1
        while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0A || bytes[j] == 0x0D { j += 1 }
        // Mask everything up to the end of the value: a string's closing quote, or the next , } ].
        var end = j
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
          end += 1
          while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
          }
          end = min(end + 1, bytes.count)
        } else {
          while end < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[end]) {
            end += 1
          }
        }
        let replacement = Array("\"\(mask)\"".utf8)
        bytes.replaceSubrange(j..<end, with: replacement)
        i = j + replacement.count
      }
    }
    return maskingKeyShapedText(String(decoding: bytes, as: UTF8.self))
  }

  /// An excerpt of at most `limit` characters around `offset`, with secrets masked first (so a
  /// secret cut in half by the window is still masked).
  public static func excerpt(of frame: [UInt8], around offset: Int, limit: Int = 200) -> String {
    let text = redactedText(String(decoding: frame, as: UTF8.self))
    let chars = Array(text)
    guard chars.count > limit else { return text }
    // Map the byte offset to an approximate character offset (exact for ASCII).
    let center = min(max(0, offset), chars.count)
    let start = max(0, min(center - limit / 2, chars.count - limit))
    return String(chars[start..<min(chars.count, start + limit)])
  }

  /// Shortens a value for a human message.
  static func truncated(_ s: String, limit: Int = 60) -> String {
    let masked = maskingKeyShapedText(s)
    return masked.count <= limit ? masked : String(masked.prefix(limit)) + "…"
  }

  /// Replaces `untethered-<hex>` runs with the mask.
  static func maskingKeyShapedText(_ s: String) -> String {
    let prefix = Array("untethered-".utf8)
    let bytes = Array(s.utf8)
    guard bytes.count >= prefix.count, find(prefix, in: bytes, from: 0) != nil else { return s }
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
      if let at = find(prefix, in: bytes, from: i), at == i {
        var j = i + prefix.count
        while j < bytes.count,
          (bytes[j] >= 0x30 && bytes[j] <= 0x39) || (bytes[j] | 0x20 >= 0x61 && bytes[j] | 0x20 <= 0x66)
        {
          j += 1
        }
        out.append(contentsOf: mask.utf8)
        i = j
      } else {
        out.append(bytes[i])
        i += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
    guard needle.count <= haystack.count, from <= haystack.count - needle.count else { return nil }
    var i = from
    while i <= haystack.count - needle.count {
      if haystack[i] == needle[0] && Array(haystack[i..<(i + needle.count)]) == needle { return i }
      i += 1
    }
    return nil
  }
}
