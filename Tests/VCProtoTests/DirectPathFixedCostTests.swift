import Foundation
import Testing

@testable import VCProtoCore
@testable import VCProtoJSON

/// What the direct path does once per frame, made cheap without changing what it accepts: the name
/// table is a plain value, the parser's buffers are made only when a frame needs them, and a frame
/// opening with exactly `{"type":"` is recognised by one comparison, with the same effects and limits
/// as the general way.
@Suite struct DirectPathFixedCostTests {
  @Test func knownKeysIsAPlainValue() {
    // Copied into every parser: a reference inside would be retained and released per frame.
    #expect(_isPOD(KnownKeys.self))
  }

  @Test func parserMakesItsBuffersOnlyWhenNeeded() {
    /// Whether reading `text` with `read` made the parser's buffers.
    func buffersMade(_ text: String, _ read: (inout JSONParser) -> Void) -> Bool {
      Array(text.utf8).withUnsafeBufferPointer { buffer in
        var parser = JSONParser(buffer: buffer, limits: .default)
        read(&parser)
        return parser.buffers != nil
      }
    }
    let pullTypeAndString: (inout JSONParser) -> Void = { parser in
      _ = parser.pullLeadingType()
      var members = 1
      _ = try? parser.pullKey(&members)
      _ = try? parser.pullString()
    }
    #expect(!buffersMade(#"{"type":"ping"}"#, pullTypeAndString))
    #expect(!buffersMade(#"{"type":"ping","text":"no escapes, é"}"#, pullTypeAndString))
    // An escaped string is unescaped on the stack wherever it is in the frame; only one longer than
    // the stack space needs the scratch space; a tree the stacks.
    #expect(!buffersMade(#"{"type":"ping","text":"a\nb"}"#, pullTypeAndString))
    let far = String(repeating: " ", count: JSONParser.stackUnescapeBytes)
    #expect(!buffersMade(#"{"type":"ping","text":"a\nb""# + far + "}", pullTypeAndString))
    let long = String(repeating: "x", count: JSONParser.stackUnescapeBytes)
    #expect(buffersMade(#"{"type":"ping","text":"a\nb"# + long + #"""# + far + "}", pullTypeAndString))
    #expect(buffersMade(#"{"type":"ping"}"#) { _ = try? $0.parseDocument() })
  }

  /// The frames below with and without whitespace before the `type`: the compact opening is read by one
  /// comparison, the spaced one the general way; both must give the same message and count the same
  /// values.
  static let frames = [
    #"{"type":"ping"}"#,
    #"{"type":"ack","message":"Processing prompt..."}"#,
    #"{"type":"turn_complete","session_id":"4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11"}"#,
    #"{"type":"pong","x":{"a":[1,2,{}]}}"#,
  ]

  @Test func compactOpeningReadsAsTheGeneralWay() {
    for version in [ProtocolVersion.v0_2_0, .v0_5_0] {
      let decoder = MessageDecoder(options: ValidationOptions(version: version))
      for frame in Self.frames {
        let spaced = frame.replacingOccurrences(of: #"{"type":"#, with: #"{ "type":"#)
        var compactStats = JSONParseStats()
        var spacedStats = JSONParseStats()
        let compact = decoder.directBuild(Array(frame.utf8), stats: &compactStats)
        let general = decoder.directBuild(Array(spaced.utf8), stats: &spacedStats)
        #expect(compact != nil, "\(frame)")
        #expect(compact == general, "\(frame)")
        #expect(compactStats.values == spacedStats.values, "\(frame)")
      }
    }
  }

  @Test func compactOpeningKeepsTheLimits() {
    // The frame, its `type` value and nothing else: two values, one level, one member, four-byte name.
    let frame = Array(#"{"type":"ping"}"#.utf8)
    let spaced = Array(#"{ "type":"ping"}"#.utf8)
    let refused = [
      JSONLimits(maxValues: 1), JSONLimits(maxDepth: 0), JSONLimits(maxObjectMembers: 0), JSONLimits(maxStringBytes: 3),
    ]
    for limits in refused {
      let decoder = MessageDecoder(options: ValidationOptions(version: .v0_2_0, limits: limits))
      #expect(decoder.directBuild(frame) == nil, "\(limits)")
      #expect(decoder.directBuild(spaced) == nil, "\(limits)")
    }
    let decoder = MessageDecoder(
      options: ValidationOptions(version: .v0_2_0, limits: JSONLimits(maxDepth: 1, maxValues: 2)))
    #expect(decoder.directBuild(frame) != nil)
    #expect(decoder.directBuild(spaced) != nil)
  }

  @Test func nameComparisonSeesEveryByte() {
    // Word-wise comparison with an overlapping last word: every length a member name can have, a
    // difference at each position, and bytes around the ranges that must not be read as part of them.
    for n in 0...40 {
      let a = (0..<(n + 16)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
      a.withUnsafeBufferPointer { a in
        let start = a.baseAddress! + 8
        var b = Array(a)
        b[3] ^= 0xFF
        b[8 + n] ^= 0xFF  // just past the range
        b.withUnsafeBufferPointer { b in #expect(memcmpBytes(start, b.baseAddress! + 8, n), "length \(n)") }
        for i in 0..<n {
          var c = Array(a)
          c[8 + i] ^= 0x20
          c.withUnsafeBufferPointer { c in
            #expect(!memcmpBytes(start, c.baseAddress! + 8, n), "length \(n), byte \(i)")
          }
        }
      }
    }
  }
}
