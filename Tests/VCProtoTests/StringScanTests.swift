import Testing

@testable import VCProto

/// The string reader's fast path (one scan, UTF-8 validated once as the String is made) against its
/// byte-by-byte reading (`parseStringChecked`, which validates each sequence as it goes): the same
/// String, or the same error at the same offset, for every string; and member names compared a word
/// at a time against a byte-by-byte comparison.
@Suite struct StringScanTests {
  /// Both readings of the JSON string literal `literal` (opening quote included), inside a frame
  /// padded so that the word-at-a-time scan and the byte loop at the frame's end are both exercised.
  static func expectBothReadingsAgree(_ literal: [UInt8], limits: JSONLimits = .default, _ label: String) {
    for padding in [0, 1, 7, 8, 16] {
      let frame = literal + [UInt8](repeating: UInt8(ascii: " "), count: padding)
      frame.withUnsafeBufferPointer { buffer in
        var fast = JSONParser(buffer: buffer, limits: limits)
        var checked = JSONParser(buffer: buffer, limits: limits)
        let a = Result { () throws(JSONReadError) in try fast.parseString() }
        let b = Result { () throws(JSONReadError) in try checked.parseStringChecked() }
        switch (a, b) {
        case (.success(let x), .success(let y)):
          #expect(Array(x.utf8) == Array(y.utf8), "\(label) (+\(padding))")
          #expect(fast.pos == checked.pos, "\(label) (+\(padding))")
        case (.failure(let x), .failure(let y)):
          #expect(x == y, "\(label) (+\(padding))")
        default:
          Issue.record("\(label) (+\(padding)): fast \(a), checked \(b)")
        }
      }
    }
  }

  static func quoted(_ body: [UInt8]) -> [UInt8] { [0x22] + body + [0x22] }

  @Test func validStringsReadAlike() {
    let bodies: [String] = [
      "", "a", "session-0001", "2026-11-23T19:20:35.123Z", String(repeating: "x", count: 40),
      "héllo", "日本語のテキスト", "emoji 🎉 and more 🎉🎉", "mixed é\u{301} combining", "tab\\tand\\nnewline",
      "quote \\\" inside", "\\u00e9\\u65e5\\ud83c\\udf89", "é\\n" + String(repeating: "ü", count: 30),
      String(repeating: "abcdefg\\\\", count: 9), "\\/slash", "ends with escape \\n",
    ]
    for body in bodies { Self.expectBothReadingsAgree(Self.quoted(Array(body.utf8)), body) }
  }

  @Test func brokenStringsReportTheSameError() {
    var cases: [(String, [UInt8])] = [
      ("unterminated", Array("\"abc".utf8)),
      ("unterminated non-ASCII", Array("\"abcé".utf8)),
      ("control character", Array("\"ab\ncd\"".utf8)),
      ("control after non-ASCII", Array("\"é\u{1}\"".utf8)),
      ("bad escape", Array("\"ab\\qcd\"".utf8)),
      ("lone surrogate escape", Array("\"ab\\ud800cd\"".utf8)),
      ("truncated unicode escape", Array("\"ab\\u12".utf8)),
    ]
    let invalidUTF8: [[UInt8]] = [
      [0xC3], [0xC3, 0x28], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
      [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xE2, 0x82],
    ]
    for (i, bad) in invalidUTF8.enumerated() {
      cases.append(("invalid UTF-8 \(i)", Self.quoted(bad)))
      cases.append(("invalid UTF-8 \(i) after text", Self.quoted(Array("some text é ".utf8) + bad + [0x61])))
      cases.append(("invalid UTF-8 \(i) then an escape", Self.quoted(bad + Array("\\n".utf8))))
      cases.append(("invalid UTF-8 \(i) after an escape", Self.quoted(Array("a\\n".utf8) + bad)))
      cases.append(("invalid UTF-8 \(i) then a control", [0x22] + bad + [0x01, 0x22]))
      cases.append(("invalid UTF-8 \(i) unterminated", [0x22] + Array("abcdefghij".utf8) + bad))
    }
    for (label, literal) in cases { Self.expectBothReadingsAgree(literal, label) }
  }

  @Test func tooLongStringsReportTheSameError() {
    var limits = JSONLimits.default
    limits.maxStringBytes = 10
    for body in ["0123456789", "0123456789a", "é1234567", "é12345678", "\\n123456789", "\\n1234567890"] {
      Self.expectBothReadingsAgree(Self.quoted(Array(body.utf8)), limits: limits, body)
    }
    // Too long and invalid UTF-8: the first problem in the string is reported.
    Self.expectBothReadingsAgree(Self.quoted([0xC3, 0x28] + Array("0123456789".utf8)), limits: limits, "both")
  }

  /// Every name length from 0 to 40: equal names match, and a difference in any single byte is seen.
  @Test func memberNamesCompareByEveryByte() {
    for length in 0...40 {
      let name = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
      var variants: [[UInt8]] = [name]
      for i in 0..<length {
        var other = name
        other[i] = UInt8(ascii: "_")
        variants.append(other)
      }
      for candidate in variants {
        let frame = Self.quoted(candidate) + Array(":1}".utf8)
        frame.withUnsafeBufferPointer { buffer in
          let p = JSONParser(buffer: buffer, limits: .default)
          let key = JSONParser.Key(start: 1, count: candidate.count)
          let same = name.withUnsafeBufferPointer { p.keyIs(key, $0) }
          #expect(same == (candidate == name), "length \(length): \(candidate)")
        }
      }
    }
  }
}
