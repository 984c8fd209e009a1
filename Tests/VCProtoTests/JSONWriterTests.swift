import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// JSONWriter's escaping (sixteen bytes at a time, then eight, then one) and its storage (room made
/// once per call, grown by doubling, shared by copies until one writes) against a byte-by-byte
/// reference.
@Suite struct JSONWriterTests {
  /// The reference: the rules of JSONWriter's documentation, one byte at a time.
  static func reference(_ string: String) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "\"")]
    let hex = Array("0123456789abcdef".utf8)
    for b in string.utf8 {
      switch b {
      case 0x22: out += [0x5C, 0x22]
      case 0x5C: out += [0x5C, 0x5C]
      case 0x08: out += Array("\\b".utf8)
      case 0x0C: out += Array("\\f".utf8)
      case 0x0A: out += Array("\\n".utf8)
      case 0x0D: out += Array("\\r".utf8)
      case 0x09: out += Array("\\t".utf8)
      case ..<0x20: out += Array("\\u00".utf8) + [hex[Int(b >> 4)], hex[Int(b & 0xF)]]
      default: out.append(b)
      }
    }
    out.append(UInt8(ascii: "\""))
    return out
  }

  /// Strings of every length up to 70 with a byte to escape (each kind, and two in a row) at every
  /// position, around the eight- and sixteen-byte steps, with non-ASCII around them.
  @Test func escapingAtEveryPositionMatchesTheReference() {
    let specials: [String] = ["\"", "\\", "\n", "\u{0}", "\u{1F}", "\t", "\u{8}", "\u{C}", "\r", "\"\\", "\n\n"]
    for length in 0...70 {
      let clean = String(repeating: "a", count: length)
      var w = JSONWriter(reservingCapacity: 1)
      w.write(clean)
      #expect(w.bytes == Self.reference(clean), "clean, length \(length)")
      for special in specials {
        for position in stride(from: 0, through: length, by: 1) {
          let chars = Array(clean)
          let s = String(chars[..<position]) + special + "é" + String(chars[position...]) + "🙂"
          var w = JSONWriter(reservingCapacity: 1)
          w.write(s)
          #expect(w.bytes == Self.reference(s), "\(special.debugDescription) at \(position) of \(length)")
        }
      }
    }
  }

  /// Objects and arrays of a tree: each member's name (escaped, the empty one too) goes out with its
  /// `,` and `:`; elements with their `,`.
  @Test func treesWriteNamesWithTheirPunctuation() {
    let names = ["", "a", "q\"uote", "line\nbreak", String(repeating: "n", count: 40) + "\u{1}"]
    var members: [JSONObject.Member] = []
    for (i, name) in names.enumerated() {
      members.append(
        JSONObject.Member(
          key: name, value: i % 2 == 0 ? .array([.null, .bool(true), .string(name)]) : .object(JSONObject())))
    }
    var w = JSONWriter(reservingCapacity: 1)
    w.write(JSONValue.object(JSONObject(members)))
    var expected: [UInt8] = Array("{".utf8)
    for (i, name) in names.enumerated() {
      if i > 0 { expected += Array(",".utf8) }
      expected += Self.reference(name) + Array(":".utf8)
      expected += i % 2 == 0 ? Array("[null,true,".utf8) + Self.reference(name) + Array("]".utf8) : Array("{}".utf8)
    }
    expected += Array("}".utf8)
    #expect(w.bytes == expected)
    var members2 = JSONWriter(reservingCapacity: 1)
    members2.writeMembers(JSONObject(members), first: false)
    #expect(members2.bytes == Array(",".utf8) + expected.dropFirst().dropLast())
  }

  /// A long string of nothing but bytes to escape (six bytes out for each byte in) grows the
  /// writer while it is written, after other bytes.
  @Test func stringsOfEscapesGrowTheWriter() {
    let controls = String(repeating: "\u{1}\"\u{1F}\\", count: 4000)
    var w = JSONWriter(reservingCapacity: 16)
    w.write(12345)
    w.write(controls)
    #expect(w.bytes == Array("12345".utf8) + Self.reference(controls))
    #expect(w.byteCount == w.bytes.count)
  }

  /// Writers are values: a copy writes into its own bytes, the original keeps its own.
  @Test func aCopiedWriterWritesIntoItsOwnBytes() {
    var a = JSONWriter(reservingCapacity: 64)
    a.beginArray()
    a.write(1)
    var b = a
    b.writeComma()
    b.write("b")
    a.writeComma()
    a.write(true)
    a.endArray()
    b.endArray()
    #expect(String(decoding: a.bytes, as: UTF8.self) == "[1,true]")
    #expect(String(decoding: b.bytes, as: UTF8.self) == "[1,\"b\"]")
    a.removeAll()
    a.writeNull()
    #expect(String(decoding: a.bytes, as: UTF8.self) == "null")
    #expect(String(decoding: b.bytes, as: UTF8.self) == "[1,\"b\"]")
  }

  /// Integers: every power of ten and its neighbours, and the extremes, as `String` spells them.
  @Test func integersAsTheStandardLibrarySpellsThem() {
    var values = [0, 1, -1, Int.max, Int.min, Int.max - 1, Int.min + 1]
    var p = 1
    while p <= Int.max / 10 {
      p *= 10
      values += [p - 1, p, p + 1, -(p - 1), -p, -(p + 1)]
    }
    for v in values {
      var w = JSONWriter(reservingCapacity: 1)
      w.write(v)
      #expect(String(decoding: w.bytes, as: UTF8.self) == String(v))
    }
  }

  /// A message encoded into a writer kept from frame to frame gives the frame back, as encoding it
  /// alone does.
  @Test func encodingIntoAKeptWriterGivesTheSameFrames() throws {
    let frames = [
      #"{"type":"command_output","command_session_id":"cmd-1","stream":"stdout","text":"On branch main"}"#,
      #"{"type":"command_output","command_session_id":"cmd-1","stream":"stderr","text":"a\tb \"c\" \\ \u0001 é, then a line long enough for sixteen-byte steps\n"}"#,
    ]
    let decoder = MessageDecoder(options: ValidationOptions(version: .v0_5_0))
    let encoder = MessageEncoder()
    var kept = JSONWriter(reservingCapacity: 1)
    for frame in frames {
      guard case .server(let message) = try decoder.decode(frame) else {
        Issue.record("not a server message: \(frame)")
        continue
      }
      kept.removeAll()
      encoder.encode(message, into: &kept)
      #expect(kept.withUnsafeBytes { Array($0) } == Array(frame.utf8))
      #expect(encoder.encode(message) == Array(frame.utf8))
    }
  }
}
