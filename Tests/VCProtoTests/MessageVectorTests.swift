import Foundation
import Testing

@testable import VCProto

/// Every golden message vector: the verdict, the exact error findings (pointer and code), the listed
/// warnings, decoding, and a byte-exact re-encoding of valid frames.
@Suite struct MessageVectorTests {
  struct Vector: Decodable {
    struct Expected: Decodable, Hashable {
      var pointer: String
      var code: String
    }
    var id: String
    var direction: String
    var protocol_version: String
    var frame: String
    var valid: Bool
    var findings: [Expected]?
    var warnings: [Expected]?
    /// `false` for a valid frame that is not in canonical form (it re-encodes differently).
    var canonical: Bool?
  }

  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Vectors/messages")

  static func vectors() throws -> [Vector] {
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
    return try files.sorted().flatMap { name in
      try JSONDecoder().decode([Vector].self, from: Data(contentsOf: directory.appendingPathComponent(name)))
    }
  }

  @Test func vectorsAreManyAndUnique() throws {
    let vectors = try Self.vectors()
    #expect(vectors.count > 400)
    #expect(Set(vectors.map(\.id)).count == vectors.count)
    // At least one valid vector for every modelled type, extensions included.
    let validTypes = Set(
      vectors.filter(\.valid).compactMap { v -> String? in
        (try? JSONReader().parse(v.frame))?["type"]?.stringValue
      })
    for spec in ProtocolCatalog.latest.messages where spec.isModelled {
      #expect(validTypes.contains(spec.type), "no valid vector for \(spec.type)")
    }
  }

  @Test func everyVectorGetsItsVerdictAndFindings() throws {
    for v in try Self.vectors() {
      let options = ValidationOptions(
        direction: MessageDirection(rawValue: v.direction), protocolVersion: v.protocol_version)
      let report = Validator(options: options).validate(v.frame)
      let errors = Set(report.errors.map { Vector.Expected(pointer: $0.pointer, code: $0.code.rawValue) })
      #expect(report.isValid == v.valid, "\(v.id): \(report.findings)")
      #expect(errors == Set(v.findings ?? []), "\(v.id): \(report.findings)")
      let warnings = Set(report.warnings.map { Vector.Expected(pointer: $0.pointer, code: $0.code.rawValue) })
      #expect(Set(v.warnings ?? []).isSubset(of: warnings), "\(v.id): \(report.findings)")

      let decoder = MessageDecoder(options: options)
      do {
        let message = try decoder.decode(v.frame)
        #expect(v.valid, "\(v.id) decoded although invalid")
        let encoded = MessageEncoder().encodeText(message)
        if v.canonical ?? true {
          #expect(encoded == v.frame, "\(v.id): re-encoded as \(encoded)")
        } else {
          #expect(encoded != v.frame, "\(v.id) is canonical after all")
          #expect(try decoder.decode(encoded) == message, "\(v.id): round trip changed the message")
        }
      } catch {
        #expect(!v.valid, "\(v.id) failed to decode: \(error)")
        #expect(error.findings == report.findings, "\(v.id): decode and validate disagree")
      }
    }
  }
}
