import Foundation
import Testing

@testable import VCProtoCLI
@testable import VCProtoCapture
@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// `vcproto validate` settles clean frames with the direct decode path alone when no conversation
/// needs the parsed object: the outcome (type, direction, findings) must be the one the validator gives.
@Suite(.tags(.slow), .enabled(if: slowSuitesRun)) struct FrameCheckerFastPathTests {
  static let vectors = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Vectors/messages")

  static func frames() throws -> [(id: String, frame: String, direction: String, version: String)] {
    let files = (FileManager.default.enumerator(atPath: vectors.path)?.allObjects as? [String] ?? [])
      .filter { $0.hasSuffix(".json") }
    return try files.sorted().flatMap { name -> [(id: String, frame: String, direction: String, version: String)] in
      let data = try Data(contentsOf: vectors.appendingPathComponent(name))
      let array = try JSONSerialization.jsonObject(with: data) as! [[String: Any]]
      return array.map {
        ($0["id"] as! String, $0["frame"] as! String, $0["direction"] as! String, $0["protocol_version"] as! String)
      }
    }
  }

  @Test(arguments: [false, true])
  func fastAndFullChecksAgreeOnEveryVector(strict: Bool) throws {
    let checker = FrameChecker(directionOverride: nil, strict: strict, opener: .standard)
    var fast = 0
    for v in try Self.frames() {
      for direction in [nil, MessageDirection(rawValue: v.direction)] {
        var frame = CapturedFrame(position: .line(1), payload: .text(Array(v.frame.utf8)))
        frame.direction = direction
        let full = checker.check(frame, protocolVersion: ProtocolVersion(rawValue: v.version)!, needsMessage: true)
        let quick = checker.check(frame, protocolVersion: ProtocolVersion(rawValue: v.version)!, needsMessage: false)
        #expect(quick.findings == full.findings, "\(v.id)")
        #expect(quick.messageType == full.messageType, "\(v.id)")
        #expect(quick.direction == full.direction, "\(v.id)")
        if quick.message == nil { fast += 1 }
      }
    }
    // The fast path is really taken: every clean frame that is not a handshake frame.
    #expect(fast > 150)
  }

  @Test func handshakeFramesAndWarningsStillGetTheFullCheck() {
    let checker = FrameChecker(directionOverride: nil, strict: false, opener: .standard)
    for text in [
      #"{"type":"hello","message":"m","version":"0.2.0","auth_version":1,"instructions":"i"}"#,
      #"{"type":"ping","extra":1}"#,
    ] {
      let frame = CapturedFrame(position: .line(1), payload: .text(Array(text.utf8)))
      let outcome = checker.check(frame, protocolVersion: .v0_2_0, needsMessage: false)
      #expect(outcome.message != nil, "\(text)")
    }
  }
}
