import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The direct decode path (straight from bytes into the generated structs) against the tree path (one
/// parse into `JSONValue`, then the model and the validator): the same result on every frame, and the
/// direct path really taken on the frames it is meant for.
@Suite struct DirectDecodeTests {
  /// A decoder forced onto the tree path: with a logger that records warnings, the decoder always asks
  /// the validator (``DecodeStrategy``; one that records only errors takes the direct path).
  static let treeDecoder = MessageDecoder(
    options: ValidationOptions(version: .v0_2_0), logger: ProtocolLogger(minimumLevel: .info) { _ in })

  /// Both paths on one frame: equal messages, or equal findings.
  static func expectSameResult(_ bytes: [UInt8], _ label: String, options: ValidationOptions? = nil) {
    let treeDecoder =
      options.map { MessageDecoder(options: $0, logger: ProtocolLogger(minimumLevel: .info) { _ in }) } ?? treeDecoder
    let direct = Result { () throws(DecodingFailure) in
      try MessageDecoder(options: options ?? .init(version: .v0_2_0)).decode(bytes)
    }
    let tree = Result { () throws(DecodingFailure) in try treeDecoder.decode(bytes) }
    switch (direct, tree) {
    case (.success(let a), .success(let b)):
      #expect(a == b, "\(label): the paths decode differently")
    case (.failure(let a), .failure(let b)):
      #expect(a.findings == b.findings, "\(label): the paths report differently")
    default:
      Issue.record("\(label): direct \(direct) but tree \(tree)")
    }
  }

  /// Variants of a frame that stress the direct path's give-up points: cut short, `type` moved last,
  /// a member name escaped, every member duplicated, whitespace everywhere.
  static func variants(of frame: String) -> [(String, String)] {
    var out: [(String, String)] = []
    let bytes = Array(frame.utf8)
    for cut in [1, bytes.count / 3, bytes.count / 2, bytes.count - 1] where cut > 0 && cut < bytes.count {
      out.append(("cut at \(cut)", String(decoding: bytes[..<cut], as: UTF8.self)))
    }
    if case .object(let object)? = try? JSONReader().parse(frame) {
      var moved = object
      if let type = moved["type"] {
        moved["type"] = nil
        moved["type"] = type
        out.append(("type last", moved.jsonTextForTests))
      }
      if let first = object.members.first(where: { $0.key != "type" }) {
        let escaped = "\"" + first.key.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined() + "\""
        out.append(("escaped key", frame.replacingOccurrences(of: "\"\(first.key)\"", with: escaped)))
        out.append(("duplicate member", String(frame.dropLast()) + ",\"\(first.key)\":\(first.value.jsonText)}"))
      }
    }
    out.append(
      ("spaced", frame.replacingOccurrences(of: ",", with: " ,\n ").replacingOccurrences(of: ":", with: " : ")))
    return out
  }

  @Test(.tags(.slow), .enabled(if: slowSuitesRun)) func everyVectorAndItsVariantsDecodeAlikeOnBothPaths() throws {
    var frames = 0
    for v in try MessageVectorTests.vectors() {
      Self.expectSameResult(Array(v.frame.utf8), v.id)
      for (name, variant) in Self.variants(of: v.frame) {
        Self.expectSameResult(Array(variant.utf8), "\(v.id) (\(name))")
        frames += 1
      }
    }
    #expect(frames > 2000)
  }

  /// `null` in place of each member of each valid vector, nested members included: the direct path
  /// decodes exactly what the tree path decodes (the generated decoders test for `null` only where it
  /// is allowed or the type's own read would take it; a string, number, boolean or array read refuses
  /// it by itself), in the vector's version.
  @Test(.tags(.slow), .enabled(if: slowSuitesRun)) func nullInPlaceOfEachMemberDecodesAlikeOnBothPaths() throws {
    /// The value with one member (the `index`-th met, depth first) replaced by `null`; `index` counts down.
    func nulled(_ value: JSONValue, _ index: inout Int) -> JSONValue {
      switch value {
      case .object(let object):
        var members = object.members
        for i in members.indices {
          if index == 0, members[i].key != "type" {
            members[i].value = .null
            index -= 1
            return .object(JSONObject(members))
          }
          if members[i].key != "type" { index -= 1 }
          members[i].value = nulled(members[i].value, &index)
          if index < 0 { return .object(JSONObject(members)) }
        }
        return value
      case .array(let items):
        var items = items
        for i in items.indices {
          items[i] = nulled(items[i], &index)
          if index < 0 { return .array(items) }
        }
        return value
      default: return value
      }
    }
    var (frames, refused) = (0, 0)
    for v in try MessageVectorTests.vectors() where v.valid {
      guard let tree = try? JSONReader().parse(v.frame) else { continue }
      let options = ValidationOptions(version: ProtocolVersion(rawValue: v.protocol_version)!)
      for member in 0..<64 {
        var index = member
        let variant = nulled(tree, &index)
        guard index < 0 else { break }  // every member done
        let bytes = Array(variant.jsonText.utf8)
        Self.expectSameResult(bytes, "\(v.id), member \(member) null", options: options)
        if (try? MessageDecoder(options: options).decode(bytes)) == nil { refused += 1 }
        frames += 1
      }
    }
    #expect(frames > 1000)
    #expect(refused > 500)
  }

  /// The one generated decoder over its two readers, on every vector in its own version: the tree
  /// reader reads every frame the validator accepts, to the message the decoder returns; it refuses
  /// every other; and where the bytes reader reads a frame, it reads the same message.
  @Test func theTwoReadersAgreeOnEveryVector() throws {
    var (accepted, refused, bytes) = (0, 0, 0)
    for v in try MessageVectorTests.vectors() {
      let version = try #require(ProtocolVersion(rawValue: v.protocol_version))
      let options = ValidationOptions(version: version)
      guard case .object(let object)? = try? JSONReader().parse(v.frame), case .string(let type)? = object["type"],
        let spec = ProtocolCatalog.catalog(version).message(type), spec.isModelled
      else { continue }
      let tree = try? MessageDecoder.read(object, type: type, direction: spec.direction, version: version)
      let report = Validator(options: options).validate(v.frame)
      if report.isValid {
        #expect(tree == (try? MessageDecoder(options: options).decode(v.frame)), "\(v.id)")
        #expect(tree != nil, "\(v.id): the tree reader refused a valid frame")
        accepted += 1
      } else if tree == nil {
        refused += 1
      }
      if let direct = MessageDecoder(options: options).directBuild(Array(v.frame.utf8)) {
        #expect(direct == tree, "\(v.id): the readers read different messages")
        bytes += 1
      }
    }
    #expect(accepted >= 80 * ProtocolVersion.allCases.count)
    #expect(refused >= 100)
    #expect(bytes >= 80 * ProtocolVersion.allCases.count)
  }

  /// Each vector on a connection of its own version, whose rules differ (the handshake's among them).
  @Test func everyVectorDecodesAlikeOnBothPathsInItsVersion() throws {
    var handshake = 0
    for v in try MessageVectorTests.vectors() {
      Self.expectSameResult(
        Array(v.frame.utf8), v.id, options: ValidationOptions(version: ProtocolVersion(rawValue: v.protocol_version)!))
      if Validator.handshakeTypes.contains(where: { v.frame.contains("\"type\":\"\($0)\"") }) { handshake += 1 }
    }
    #expect(handshake >= 20)
  }

  @Test func everyRealSampleDecodesAlikeOnBothPaths() throws {
    for sample in try RealSampleTests.samples() {
      Self.expectSameResult(Array(sample.text.utf8), "sample line \(sample.line)")
    }
  }

  /// The direct path is not a fallback that never runs: every valid vector whose `type` comes first
  /// and whose member names are plain decodes there, to the tree path's message, the handshake
  /// messages included (their one struct checks the vector's version's rules).
  @Test func validVectorsTakeTheDirectPath() throws {
    var direct = 0
    var handshake = 0
    // (Member names beyond plain ASCII are left to the tree path by design.)
    // Every version: the generated structs check exactly their versions' rules.
    for v in try MessageVectorTests.vectors()
    where v.valid && v.frame.hasPrefix("{\"type\":") && !v.id.hasSuffix("combining_mark") {
      let options = ValidationOptions(version: ProtocolVersion(rawValue: v.protocol_version)!)
      let decoder = MessageDecoder(options: options)
      let tree = MessageDecoder(options: options, logger: ProtocolLogger(minimumLevel: .info) { _ in })
      let expected = try tree.decode(v.frame)
      if case .unknown = expected { continue }
      if Validator.handshakeTypes.contains(expected.type) { handshake += 1 }
      #expect(decoder.directBuild(Array(v.frame.utf8)) == expected, "\(v.id)")
      direct += 1
    }
    #expect(direct >= 80 * ProtocolVersion.allCases.count)
    #expect(handshake >= 5)
  }

  /// No message type is both the client's and the server's, in any version: a decoder without a
  /// direction may try either side's types first.
  @Test func clientAndServerTypesAreDisjoint() {
    for version in ProtocolVersion.allCases {
      let messages = ProtocolCatalog.catalog(version).messages
      let client = Set(messages.filter { $0.direction == .clientToServer }.map(\.type))
      let server = Set(messages.filter { $0.direction == .serverToClient }.map(\.type))
      #expect(!client.isEmpty && !server.isEmpty)
      #expect(client.isDisjoint(with: server), "\(version): \(client.intersection(server))")
    }
  }

  /// The direct path gives up (and the tree path decides) on what it does not handle itself.
  @Test func directPathGivesUpOnWhatItDoesNotHandle() {
    let decoder = MessageDecoder(options: ValidationOptions(version: .v0_2_0))
    let giveUps = [
      #"{"session_id":"s","type":"subscribe"}"#,  // type not first
      #"{"type":"subscribe","sess\u0069on_id":"s"}"#,  // escaped member name
      #"{"type":"subscribe","session_id":"s","session_id":"t"}"#,  // duplicate member
      #"{"type":"subscribe","session_id":null}"#,  // null where not allowed
      #"{"type":"set_max_message_size","size_kb":0}"#,  // below the minimum
      #"{"type":"set_max_message_size","size_kb":1.0}"#,  // not an integer literal
      #"{"type":"set_max_message_size","size_kb":99999999999999999999}"#,  // beyond 64 bits
      #"{"type":"mystery"}"#,  // unknown type
      "\u{FEFF}{\"type\":\"ping\"}",  // byte-order mark
      #"{"type":"ping"} x"#,  // trailing data
    ]
    for frame in giveUps {
      #expect(decoder.directBuild(Array(frame.utf8)) == nil, "\(frame)")
      Self.expectSameResult(Array(frame.utf8), frame)
    }
  }
}

extension JSONObject {
  /// Compact JSON text of the object, members in order.
  fileprivate var jsonTextForTests: String { JSONValue.object(self).jsonText }
}
