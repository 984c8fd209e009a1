import Testing

@testable import VCProtoCore
@testable import VCProtoJSON

/// ``RawJSON`` and the raw Claude records kept as it: the bytes reader keeps a record's own bytes
/// after checking them while scanning, and accepts exactly the records the validator accepts.
@Suite struct RawJSONTests {
  /// A 0.2.0 `session_history` frame around one record's text.
  static func frame(_ record: String) -> String {
    #"{"type":"session_history","session_id":"s","messages":["# + record
      + #"],"total_count":1,"oldest_message_id":"u","newest_message_id":"u","is_complete":true}"#
  }

  static let options = ValidationOptions(version: .v0_2_0)

  /// The decoded record of a one-record frame.
  static func record(_ frame: String, limits: JSONLimits = .default) throws -> ClaudeRecord {
    var options = Self.options
    options.limits = limits
    let message = try MessageDecoder(options: options).decode(frame)
    guard case .server(.sessionHistory(.v0_2_0(let history))) = message, history.messages.count == 1 else {
      throw DecodingFailure(findings: [], messageType: nil)
    }
    return history.messages[0]
  }

  /// A record with whitespace, an escape the writer would not write (`\u00e9`), an escaped member
  /// name, a tool result of every JSON type and undeclared members is kept byte for byte on the bytes
  /// reader (a tree would have been written back in the writer's form), and written back as it came.
  @Test func theBytesReaderKeepsTheRecordsOwnBytes() throws {
    let record =
      #"{ "type" : "user", "uuid":"u", "parentUuid":null, "message":{"role":"user","content":"R\u00e9sum\u00e9"},"#
      + #" "toolUseResult":{"\u0061":[1,2.5e3,-0,true,false,null,"x",{}],"b":{"c":[[]]}}, "extra":{"d":"\\"} }"#
    let frame = Self.frame(record)
    let decoder = MessageDecoder(options: Self.options)
    #expect(decoder.directBuild(Array(frame.utf8)) != nil, "the bytes reader reads the frame")
    let decoded = try Self.record(frame)
    #expect(decoded.json.bytes == Array(record.utf8))
    #expect(decoded.uuid == "u" && decoded.type == "user" && decoded.text == "Résumé")
    #expect(decoded.toolUseResult?["a"]?.arrayValue?.count == 8)
    let encoded = MessageEncoder().encode(.server(.sessionHistory(.v0_2_0(try #require(try Self.history(frame))))))
    #expect(String(decoding: encoded, as: UTF8.self) == frame)
    // The same record from its value: equal (by JSON value), with the writer's bytes.
    let rebuilt = ClaudeRecord(raw: try #require(try JSONReader().parse(record).objectValue))
    #expect(rebuilt == decoded && rebuilt.hashValue == decoded.hashValue)
    #expect(rebuilt.json.bytes != decoded.json.bytes)
  }

  /// The decoder keeps each record as a slice of the frame it read, sharing its storage (no copy,
  /// no allocation of its own); `bytes` gives the record's own bytes, and the records outlive the
  /// decoder's caller's array unchanged.
  @Test func decodedRecordsShareTheFramesStorage() throws {
    let records = [#"{"type":"user","uuid":"a"}"#, #"{"type":"assistant","uuid":"b","cwd":"/"}"#]
    let text =
      #"{"type":"session_history","session_id":"s","messages":["# + records.joined(separator: ",")
      + #"],"total_count":2,"oldest_message_id":"a","newest_message_id":"b","is_complete":true}"#
    var frame = Array(text.utf8)
    let message = try MessageDecoder(options: Self.options).decode(frame)
    guard case .server(.sessionHistory(.v0_2_0(let history))) = message else {
      Issue.record("not a 0.2.0 session_history")
      return
    }
    let base = frame.withUnsafeBufferPointer { $0.baseAddress! }
    for (record, expected) in zip(history.messages, records) {
      let start = try #require(text.utf8.firstRange(of: expected.utf8)).lowerBound
      let offset = text.utf8.distance(from: text.utf8.startIndex, to: start)
      #expect(record.json.text.withUnsafeBufferPointer { $0.baseAddress } == base + offset)
      #expect(record.json.bytes == Array(expected.utf8))
    }
    // The caller's array changed after decoding: the records keep the bytes they were read from.
    frame.replaceSubrange(0..<frame.count, with: repeatElement(UInt8(ascii: " "), count: frame.count))
    #expect(history.messages.map(\.json.bytes) == records.map { Array($0.utf8) })
    #expect(history.messages[1].uuid == "b" && history.messages[1].cwd == "/")
    // A detached record is the same record on bytes of its own, outside the frame's storage.
    for (record, expected) in zip(history.messages, records) {
      let detached = record.detached
      #expect(detached == record && detached.uuid == record.uuid && detached.json.bytes == Array(expected.utf8))
      let own = detached.json.text.withUnsafeBufferPointer { $0.baseAddress! }
      #expect(own < base || own >= base + text.utf8.count, "still inside the frame")
    }
  }

  static func history(_ frame: String) throws -> SessionHistoryMessageV0_2_0? {
    guard case .server(.sessionHistory(.v0_2_0(let h))) = try MessageDecoder(options: options).decode(frame) else {
      return nil
    }
    return h
  }

  /// Records the validator refuses, for a reason inside what the bytes reader scans without building
  /// it: each is refused by the decoder too, with the validator's findings.
  @Test(arguments: [
    #"{"type":"user","toolUseResult":{"a":1,"a":2}}"#,  // a repeated name deep inside
    #"{"type":"user","toolUseResult":{"a":1,"\u0061":2}}"#,  // the same name, escaped
    #"{"type":"user","toolUseResult":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"a":18}}"#,
    #"{"type":"user","x":1,"x":2}"#,  // a repeated undeclared member of the record
    #"{"type":"user","uuid":"a","uuid":"a"}"#,  // a repeated declared member
    #"{"type":"user","message":{"content":[null]}}"#,  // a null element of content
    #"{"type":"user","message":{"content":7}}"#,  // content neither a string nor an array
    #"{"type":"user","message":null}"#,
    #"{"type":"user","message":{"role":1}}"#,
    #"{"uuid":"u"}"#,  // type missing
    #"{"type":"user","isSidechain":"no"}"#,
    #"{"type":"user","toolUseResult":"\ud800"}"#,  // a lone surrogate
    #"{"type":"user","toolUseResult":[1,]}"#,
    #"{"type":"user","toolUseResult":01}"#,
    #"{"type":"user","toolUseResult":{"a":1,}}"#,
  ])
  func recordsTheValidatorRefusesAreRefused(_ record: String) {
    let frame = Self.frame(record)
    let report = Validator(options: Self.options).validate(frame)
    #expect(!report.isValid)
    #expect(MessageDecoder(options: Self.options).directBuild(Array(frame.utf8)) == nil)
    do {
      _ = try MessageDecoder(options: Self.options).decode(frame)
      Issue.record("decoded: \(record)")
    } catch {
      #expect(error.findings.filter { $0.severity == .error } == report.findings.filter { $0.severity == .error })
    }
  }

  /// Valid records the bytes reader must read itself (escaped names, a large free-form object).
  @Test(arguments: [
    #"{"type":"user","toolUseResult":{"\u0061":1,"b":2}}"#,
    #"{"type":"user","toolUseResult":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"r":18}}"#,
    #"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"hi"},{"type":"tool_use","input":{}}]}}"#,
  ])
  func validRecordsAreReadFromTheBytes(_ record: String) throws {
    let frame = Self.frame(record)
    #expect(Validator(options: Self.options).validate(frame).isValid)
    #expect(MessageDecoder(options: Self.options).directBuild(Array(frame.utf8)) != nil)
    #expect(try Self.record(frame).json.bytes == Array(record.utf8))
  }

  /// The scan accepts exactly what the parser accepts, limits included: depth, string length after
  /// unescaping, array length, object size, number length and the number of values, each at and one
  /// past its limit, and JSON the parser refuses.
  @Test func theScanAcceptsWhatTheParserAccepts() {
    let e8 = String(repeating: #"\u00e9"#, count: 8)
    let cases: [(JSONLimits, [String])] = [
      (JSONLimits(maxDepth: 3), [#"[[[1]]]"#, #"[[[[1]]]]"#, #"{"a":{"b":[{}]}}"#]),
      (JSONLimits(maxStringBytes: 16), ["\"\(e8)\"", "\"\(e8)a\"", #"{"\#(e8)":1}"#, #"{"\#(e8)a":1}"#]),
      (JSONLimits(maxArrayElements: 3), [#"[1,2,3]"#, #"[1,2,3,4]"#]),
      (JSONLimits(maxObjectMembers: 2), [#"{"a":1,"b":2}"#, #"{"a":1,"b":2,"c":3}"#]),
      (JSONLimits(maxNumberLength: 3), [#"123"#, #"1234"#, #"-1.5"#, #"1e5"#]),
      (JSONLimits(maxValues: 3), [#"[1,2]"#, #"[1,2,3]"#, #"{"a":[]}"#, #"{"a":[1]}"#]),
      (
        .default,
        [
          #"{"a":1,"a":2}"#, #"{"a":1,"\u0061":2}"#, #"{"é":1,"e\u0301":2}"#, #"[1,]"#, #"{"a":1,}"#, "01", "1.",
          "-", "1e", #""\ud800""#, #""\udc00""#, #""\ud83d\ude00""#, #""\x""#, "\"a\u{01}\"", "tru", "nul",
          #"{"a"}"#, #"{"a":}"#, "[", #"""#, #"{"a":1 "b":2}"#, " [ 1 , { \"b\" : null } ] ",
          "{" + (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + #","k39":0}"#,
          "{" + (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}",
          #"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"\u0061":17}"#,
        ]
      ),
    ]
    for (limits, texts) in cases {
      for text in texts {
        let bytes = Array(text.utf8)
        let parsed = (try? JSONReader(limits: limits).parse(bytes)) != nil
        let scanned = bytes.withUnsafeBufferPointer { buffer -> Bool in
          var parser = JSONParser(buffer: buffer, limits: limits)
          parser.skipWhitespace()
          do {
            try parser.countValue()
            try parser.scanValue()
          } catch {
            return false
          }
          parser.skipWhitespace()
          return parser.pos == buffer.count
        }
        #expect(scanned == parsed, "\(text) under \(limits)")
      }
    }
  }

  /// Bytes that are not UTF-8 inside a scanned string are refused by both.
  @Test func invalidUTF8InsideAScannedMemberIsRefused() {
    for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
      let frame = Array(Self.frame(#"{"type":"user","toolUseResult":"aXb"}"#).utf8)
      let x = frame.firstIndex(of: UInt8(ascii: "X"))!
      let bytes = Array(frame[..<x]) + bad + Array(frame[(x + 1)...])
      #expect(!Validator(options: Self.options).validate(bytes).isValid)
      #expect(MessageDecoder(options: Self.options).directBuild(bytes) == nil)
    }
  }

  /// RawJSON itself: equal by JSON value, hashed alike, validated when made from outside bytes.
  @Test func rawJSONComparesByValue() throws {
    let a = try RawJSON(validating: Array(#"{"a": [1, "é"]}"#.utf8))
    let b = RawJSON(["a": [1, "é"]])
    #expect(b.bytes == Array(#"{"a":[1,"é"]}"#.utf8))
    #expect(a == b && a.hashValue == b.hashValue && a.value == b.value)
    #expect(RawJSON(["a": [1, "e\u{301}"]]).bytes != b.bytes)
    #expect(RawJSON(["a": 2]) != b)
    #expect(throws: JSONReadError.self) { try RawJSON(validating: Array(#"{"a":1,"a":2}"#.utf8)) }
    #expect(throws: JSONReadError.self) { try RawJSON(validating: Array("[1,".utf8)) }
  }
}
