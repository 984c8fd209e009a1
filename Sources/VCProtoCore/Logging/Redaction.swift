import VCProtoJSON

/// Keeps secrets out of logs, findings, excerpts and CLI output.
///
/// A member is secret when the catalog marks it so (`api_key`, `auth_response`). Names are matched
/// after decoding JSON escapes and ignoring case, `_` and `-` (so `api\u005fkey`, `API_KEY` and
/// `apiKey` are all `api_key`), and the whole value of a secret member is masked whatever its JSON
/// type (string, number, array, object). In addition, any text shaped like a voice-code API key
/// (``isKeyShaped(_:)``) is masked wherever it appears, member names included, again after decoding
/// escapes (`untethered\u002d…`, `untethered-00\u0031…`).
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

  /// ``secretFieldNames`` folded by ``folded(_:)``.
  static let foldedSecretNames: Set<String> = Set(secretFieldNames.map(folded))

  /// A member name folded for comparison with the secret names: lowercased, `_` and `-` removed.
  static func folded(_ name: String) -> String {
    String(name.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" })
  }

  /// Whether a (decoded) member name names a secret member: it folds to a secret name's fold.
  public static func isSecretName(_ name: String) -> Bool {
    name.utf8.count <= 64 && foldedSecretNames.contains(folded(name))
  }

  /// Returns `value` with the value of every secret member (at any depth, whatever its type) replaced
  /// by ``mask``, and key-shaped text masked in every string and member name.
  public static func redacted(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(var object):
      for i in object.members.indices {
        let key = object.members[i].key
        if isSecretName(key), !object.members[i].value.isNull {
          object.members[i].value = .string(mask)
        } else {
          object.members[i].value = redacted(object.members[i].value)
        }
        object.members[i].key = maskingKeyShapedText(key)
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

  /// Masks secrets in raw frame text that may not even parse, with a tolerant scan: every string
  /// token is decoded (`TolerantJSONString`) before it is matched. The value after a secret member
  /// name (quoted or not) is replaced by `"«redacted»"` whatever it is: a string, a number, a literal,
  /// or an array or object up to its matching bracket (or the end of the text); a string holding
  /// key-shaped text is written back, JSON-escaped, with that text masked; key-shaped text outside
  /// strings is masked too. Linear in the text's length.
  public static func redactedText(_ text: String) -> String {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    var plainStart = 0
    /// Copies the text between tokens, masking key-shaped runs in it.
    func flushPlain(upTo end: Int) {
      guard plainStart < end else { return }
      out += maskingKeyShapedText(String(decoding: bytes[plainStart..<end], as: UTF8.self)).utf8
    }
    while i < bytes.count {
      let b = bytes[i]
      if b == UInt8(ascii: "\"") {
        flushPlain(upTo: i)
        let token = TolerantJSONString.decode(bytes, from: i)
        let colon = skipSpace(bytes, token.end)
        if colon < bytes.count, bytes[colon] == UInt8(ascii: ":"), isSecretName(token.value) {
          out += writtenString(token.value, raw: bytes[i..<token.end])
          out += bytes[token.end...colon]
          let valueStart = skipSpace(bytes, colon + 1)
          out += bytes[(colon + 1)..<valueStart]
          out += Array("\"\(mask)\"".utf8)
          i = skipValue(bytes, valueStart)
        } else {
          out += writtenString(token.value, raw: bytes[i..<token.end])
          i = token.end
        }
        plainStart = i
      } else if isNameByte(b), i == 0 || !isNameByte(bytes[i - 1]) {
        // An unquoted (or single-quoted) member name in malformed text, e.g. {api_key: 123}.
        var end = i
        while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
        var colon = end < bytes.count && bytes[end] == UInt8(ascii: "'") ? end + 1 : end
        colon = skipSpace(bytes, colon)
        if colon < bytes.count, bytes[colon] == UInt8(ascii: ":"),
          isSecretName(String(decoding: bytes[i..<end], as: UTF8.self))
        {
          flushPlain(upTo: colon + 1)
          let valueStart = skipSpace(bytes, colon + 1)
          out += Array("\"\(mask)\"".utf8)
          i = skipValue(bytes, valueStart)
          plainStart = i
        } else {
          i = end
        }
      } else {
        i += 1
      }
    }
    flushPlain(upTo: bytes.count)
    return String(decoding: out, as: UTF8.self)
  }

  /// A string token as written (`raw`), or, when its decoded value holds key-shaped text, that value
  /// masked and JSON-escaped again.
  private static func writtenString(_ value: String, raw: ArraySlice<UInt8>) -> [UInt8] {
    let masked = maskingKeyShapedText(value)
    if masked == value { return Array(raw) }
    return Array(JSONValue.string(masked).jsonText.utf8)
  }

  private static func isNameByte(_ b: UInt8) -> Bool {
    (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z")) || (b >= 0x30 && b <= 0x39)
      || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
  }

  private static func skipSpace(_ bytes: [UInt8], _ from: Int) -> Int {
    var j = from
    while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0A || bytes[j] == 0x0D { j += 1 }
    return j
  }

  /// The end of the value starting at `start`, tolerantly: a string to its closing quote, an array
  /// or object to its matching bracket (strings inside respected), anything else to the next
  /// `,` `}` `]` or line break; the end of the text when the value is cut off.
  private static func skipValue(_ bytes: [UInt8], _ start: Int) -> Int {
    guard start < bytes.count else { return start }
    switch bytes[start] {
    case UInt8(ascii: "\""):
      return TolerantJSONString.decode(bytes, from: start).end
    case UInt8(ascii: "'"):
      var j = start + 1
      while j < bytes.count, bytes[j] != UInt8(ascii: "'") { j += bytes[j] == UInt8(ascii: "\\") ? 2 : 1 }
      return min(j + 1, bytes.count)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      var j = start
      while j < bytes.count {
        switch bytes[j] {
        case UInt8(ascii: "\""):
          j = TolerantJSONString.decode(bytes, from: j).end
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return j + 1 }
        default:
          break
        }
        j += 1
      }
      return bytes.count
    default:
      var j = start
      while j < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x0A].contains(bytes[j]) {
        j += 1
      }
      return j
    }
  }

  /// An excerpt of at most `limit` characters around `offset`, with secrets masked first (so a
  /// secret cut in half by the window is still masked). Linear in the frame's length, and the excerpt
  /// itself is built from at most `limit` Unicode scalars, so a huge malformed frame costs no more
  /// than its redaction. `offset` is a byte offset in `frame`; masking can move text, so the window
  /// is centred on the same byte offset of the redacted text.
  public static func excerpt(of frame: [UInt8], around offset: Int, limit: Int = 200) -> String {
    let text = Array(redactedText(String(decoding: frame, as: UTF8.self)).utf8)
    guard limit > 0 else { return "" }
    /// Whether a scalar starts at byte `i` (not a UTF-8 continuation byte).
    func startsScalar(_ i: Int) -> Bool { text[i] & 0xC0 != 0x80 }
    var center = min(max(0, offset), text.count)
    while center > 0, center < text.count, !startsScalar(center) { center -= 1 }
    var scalars = 0
    /// Moves `start` back over one scalar.
    func stepBack(_ start: inout Int) {
      repeat { start -= 1 } while start > 0 && !startsScalar(start)
      scalars += 1
    }
    // Half the window before the centre, the rest after it; then more before it if the text ended.
    var start = center
    while start > 0, scalars < limit / 2 { stepBack(&start) }
    var end = center
    while end < text.count, scalars < limit {
      repeat { end += 1 } while end < text.count && !startsScalar(end)
      scalars += 1
    }
    while start > 0, scalars < limit { stepBack(&start) }
    return String(decoding: text[start..<end], as: UTF8.self)
  }

  /// The prefix of every voice-code API key.
  static let keyPrefix = Array("untethered-".utf8)

  /// Whether `text` contains key-shaped text: `untethered-` in any case, which is then masked with
  /// every letter and digit after it (a real key has 32 lowercase hex digits; masking a wider run
  /// also hides a mistyped or altered key).
  public static func isKeyShaped(_ text: String) -> Bool {
    keyPrefixOffset(Array(text.utf8), from: 0) != nil
  }

  /// Replaces key-shaped runs (see ``isKeyShaped(_:)``) with the mask. Linear in the text's length.
  public static func maskingKeyShapedText(_ s: String) -> String {
    let bytes = Array(s.utf8)
    guard var at = keyPrefixOffset(bytes, from: 0) else { return s }
    var out: [UInt8] = []
    var i = 0
    while true {
      out += bytes[i..<at]
      out += mask.utf8
      i = at + keyPrefix.count
      while i < bytes.count, isAlphanumeric(bytes[i]) { i += 1 }
      guard let next = keyPrefixOffset(bytes, from: i) else { break }
      at = next
    }
    out += bytes[i...]
    return String(decoding: out, as: UTF8.self)
  }

  private static func isAlphanumeric(_ b: UInt8) -> Bool {
    (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z")) || (b >= 0x30 && b <= 0x39)
  }

  /// The offset of the next `untethered-` (ASCII case ignored) at or after `from`.
  private static func keyPrefixOffset(_ bytes: [UInt8], from: Int) -> Int? {
    guard bytes.count >= keyPrefix.count else { return nil }
    var i = from
    let last = bytes.count - keyPrefix.count
    while i <= last {
      if bytes[i] | 0x20 == UInt8(ascii: "u") {
        var k = 1
        // Letters match in either case; the hyphen only as itself.
        while k < keyPrefix.count,
          bytes[i + k] == keyPrefix[k] || (keyPrefix[k] != UInt8(ascii: "-") && bytes[i + k] | 0x20 == keyPrefix[k])
        {
          k += 1
        }
        if k == keyPrefix.count { return i }
      }
      i += 1
    }
    return nil
  }
}
