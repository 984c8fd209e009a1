import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// RFC 8259 strictness of the hand-written reader: what it must accept and what it must refuse.
@Suite struct JSONReaderConformanceTests {
  let reader = JSONReader()

  func kind(_ text: String) -> JSONReadError.Kind? {
    do {
      _ = try reader.parse(text)
      return nil
    } catch {
      return error.kind
    }
  }

  @Test(arguments: [
    "{}", "[]", "0", "-0", "1.5e-3", "1E+2", "\"\"", "true", "false", "null", " \t\r\n{\"a\" : [ 1 , 2 ] } ",
    "\"\\u00e9\\ud83d\\ude00\\/\\b\\f\\n\\r\\t\\\\\\\"\"", "\"é€😀\"", "[[[]]]", "{\"\":0}",
  ])
  func acceptsValidJSON(_ text: String) {
    #expect(kind(text) == nil, "\(text) should parse")
  }

  @Test(arguments: [
    ("", JSONReadError.Kind.invalidJSON), ("{", .invalidJSON), ("{\"a\":1,}", .invalidJSON), ("[1,]", .invalidJSON),
    ("01", .invalidJSON), ("-", .invalidJSON), ("1.", .invalidJSON), (".5", .invalidJSON), ("1e", .invalidJSON),
    ("+1", .invalidJSON), ("NaN", .invalidJSON), ("Infinity", .invalidJSON), ("tru", .invalidJSON),
    ("'a'", .invalidJSON), ("{a:1}", .invalidJSON), ("\"\\x\"", .invalidJSON), ("\"\\u12\"", .invalidJSON),
    ("\"a", .invalidJSON), ("{} {}", .invalidJSON), ("[1 2]", .invalidJSON), ("{\"a\" 1}", .invalidJSON),
    ("\"\\ud800\"", .invalidJSON), ("\"\\udc00\"", .invalidJSON), ("\"\\ud800\\u0041\"", .invalidJSON),
    ("{\"a\":1,\"a\":2}", .duplicateKey), ("\"a\u{0}b\"", .invalidJSON), ("\"tab\there\"", .invalidJSON),
    ("\u{FEFF}{}", .invalidJSON),
  ])
  func rejectsInvalidJSON(_ text: String, _ expected: JSONReadError.Kind) {
    #expect(kind(text) == expected, "\(text.debugDescription) should fail with \(expected)")
  }

  @Test func reportsTheByteOffset() {
    do {
      _ = try reader.parse("{\"type\":\"ping\",}")
      Issue.record("should fail")
    } catch {
      #expect(error.offset == 15)
      #expect(error.kind == .invalidJSON)
    }
  }

  @Test func unescapesStringsExactly() throws {
    let v = try reader.parse("[\"a\\\"b\\\\c\\/d\\u0041\\n\", \"\\ud83d\\ude00\"]")
    #expect(v == .array([.string("a\"b\\c/dA\n"), .string("😀")]))
  }

  /// Escapes at every position relative to the eight-byte words the reader steps over, next to
  /// multi-byte characters: each string decodes to the text it was built from (the oracle is the
  /// table below, one escape and the character RFC 8259 section 7 says it stands for). Each string
  /// three ways: near the frame's end; followed by enough whitespace that the stack space is all there
  /// is room for (``JSONParser/stackUnescapeBytes``); and led by plain characters up to a few bytes
  /// short of that space, so that the string outgrows it at every point of the pieces (in a run, an
  /// escape, a multi-byte character) and goes on in the scratch space.
  @Test(arguments: [(0, 0), (JSONParser.stackUnescapeBytes, 0), (0, JSONParser.stackUnescapeBytes - 24)])
  func unescapesAtEveryOffset(trailingSpaces: Int, padding: Int) throws {
    let tail = String(repeating: " ", count: trailingSpaces)
    let pad = String(repeating: "p", count: padding)
    let pieces: [(raw: String, text: String)] = [
      (#"\n"#, "\n"), (#"\""#, "\""), (#"\\"#, "\\"), (#"\u00e9"#, "\u{E9}"), (#"\ud83d\ude00"#, "\u{1F600}"),
      (#"\/"#, "/"), (#"\t"#, "\t"), (#"\b\f\r"#, "\u{8}\u{C}\r"), ("é", "é"), ("€", "€"),
    ]
    for offset in 0..<17 {
      for (i, first) in pieces.enumerated() {
        let second = pieces[(i + 1) % pieces.count]
        let lead = pad + String(repeating: "x", count: offset)
        let gap = String(repeating: "y", count: (offset * 3) % 11)
        let raw = "\"" + lead + first.raw + gap + second.raw + "z\""
        let text = lead + first.text + gap + second.text + "z"
        #expect(try reader.parse(raw + tail) == .string(text), "\(raw)")
        // Escapes from the first byte on: the stack space overflows at an escape.
        let escaped = "\"" + String(repeating: #"\n"#, count: padding + offset) + first.raw + second.raw + "\""
        let unescaped = String(repeating: "\n", count: padding + offset) + first.text + second.text
        #expect(try reader.parse(escaped + tail) == .string(unescaped), "\(escaped.prefix(40))")
        // Both in one frame: the second string starts afresh where the first left the scratch space.
        let both = try reader.parse("[" + escaped + "," + raw + "]" + tail)
        #expect(both == .array([.string(unescaped), .string(text)]), "\(raw)")
      }
    }
  }

  /// Strings that outgrow the stack space and the heap space several times over, by long runs and by
  /// escapes (ASCII and not), in one frame with shorter ones between them: each decodes to its text.
  @Test func unescapesStringsThatOutgrowEverySpace() throws {
    var raws: [String] = []
    var texts: [String] = []
    let letters = Array("abcdefg\u{E9}")
    for (i, run) in [1, 97, 1000, 5000].enumerated() {
      var raw = ""
      var text = ""
      for j in 0..<(40_000 / (run + 6)) {
        let letter = String(letters[j % letters.count])
        raw += String(repeating: letter, count: run) + (j % 3 == 0 ? #"\u00e9"# : #"\n"#)
        text += String(repeating: letter, count: run) + (j % 3 == 0 ? "\u{E9}" : "\n")
      }
      raws += ["\"" + raw + "\"", #""a\tb""#]
      texts += [text, "a\tb"]
      #expect(try reader.parse("\"" + raw + "\"") == .string(text), "run \(run), string \(i)")
    }
    #expect(try reader.parse("[" + raws.joined(separator: ",") + "]") == .array(texts.map { .string($0) }))
  }

  /// The string limit applies to the decoded bytes: four escapes of one byte each fit a limit of
  /// four bytes (eight bytes on the wire), five do not; near the frame's end and far from it; and a
  /// string longer than the stack space is counted the same once it goes on in the scratch space.
  @Test(arguments: [
    (0, 4), (JSONParser.stackUnescapeBytes, 4), (0, JSONParser.stackUnescapeBytes + 4),
    (0, 5 * JSONParser.heapUnescapeBytes + 4),
  ])
  func escapedStringsCountDecodedBytes(trailingSpaces: Int, limit: Int) throws {
    let tail = String(repeating: " ", count: trailingSpaces)
    let reader = JSONReader(limits: JSONLimits(maxStringBytes: limit))
    let fits = "\"" + String(repeating: #"\n"#, count: limit) + "\""
    let over = "\"" + String(repeating: #"\n"#, count: limit + 1) + "\""
    #expect(try reader.parse(fits + tail) == .string(String(repeating: "\n", count: limit)))
    #expect(throws: JSONReadError.self) { try reader.parse(over + tail) }
    do {
      _ = try reader.parse(over + tail)
    } catch {
      #expect(error.kind == .stringTooLong)
    }
  }

  @Test func keepsNumberLiteralsAndMemberOrder() throws {
    let v = try reader.parse("{\"z\":1.50,\"a\":-0,\"m\":12345678901234567890}")
    guard case .object(let o) = v else {
      Issue.record("not an object")
      return
    }
    #expect(o.keys == ["z", "a", "m"])
    #expect(o["z"]?.jsonText == "1.50")
    #expect(o["a"]?.int64Value == 0)
    #expect(o["m"]?.int64Value == nil)  // beyond Int64
    #expect(v.jsonText == "{\"z\":1.50,\"a\":-0,\"m\":12345678901234567890}")
  }

  @Test func writerEscapesOnlyWhatItMust() {
    let v: JSONValue = ["s": "a/b\"c\\d\u{1}\n\té"]
    #expect(v.jsonText == "{\"s\":\"a/b\\\"c\\\\d\\u0001\\n\\té\"}")
  }
}

/// The word-at-a-time string scanner must find a special byte at every position within and across words.
@Suite struct JSONReaderScannerBoundaryTests {
  @Test(arguments: ["\\\"", "\\n", "é", "😀", "\\u00e9"])
  func specialBytesAtEveryOffset(_ special: String) throws {
    let expected = try JSONReader().parse("\"\(special)\"").stringValue ?? ""
    for offset in 0..<20 {
      let prefix = String(repeating: "a", count: offset)
      let suffix = String(repeating: "b", count: 19 - offset)
      let value = try JSONReader().parse("\"\(prefix)\(special)\(suffix)\"")
      #expect(value == .string(prefix + expected + suffix), "offset \(offset)")
    }
  }

  @Test func controlCharacterIsCaughtAtEveryOffset() {
    for offset in 0..<20 {
      let text = "\"" + String(repeating: "a", count: offset) + "\u{7}" + String(repeating: "b", count: 12) + "\""
      #expect(throws: JSONReadError.self) { try JSONReader().parse(text) }
    }
  }
}
