import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// This library as a conformance peer, in process: what `vcproto vectors` runs the golden vectors
/// against. It answers the requests `vcproto conformance` sends a peer over its pipe
/// (Vectors/CONFORMANCE.md) with the library's own code, and its replies are judged by the same
/// ``ConformanceKind/judge(_:vector:)``, so both runners hold a result to one rule.
///
/// Beyond the answer, the peer checks the library against itself (the decoder agrees with the
/// validator, a fresh seal opens back, ``AuthClient`` writes the connect it is asked to, ...); a
/// disagreement is the reply's `error`, which fails the test.
enum SwiftPeer {
  /// Why the peer gives no result: the reply's `error`.
  struct Refusal: Error, Sendable {
    var text: String
    init(_ text: String) { self.text = text }
  }

  /// Every kind the peer answers (all the runner knows).
  static let kinds = ["messages", "envelope", "auth", "auth_hkdf", "auth_frames", "negotiation", "sessions"]

  /// The reply to a request of `kind` with `input`: `{"result": ...}`, `{"error": "..."}`, or
  /// `{"unsupported": "..."}` for a kind it does not know.
  static func reply(kind: String, input: JSONValue) -> JSONValue {
    let answer: Result<JSONValue, Refusal>
    switch kind {
    case "messages": answer = MessageVectors.answer(input)
    case "envelope": answer = EnvelopeVectors.answer(input)
    case "auth": answer = AuthVectors.answer(input)
    case "auth_hkdf": answer = AuthVectors.answerHKDF(input)
    case "auth_frames": answer = AuthVectors.answerFrames(input)
    case "negotiation": answer = NegotiationVectors.answer(input)
    case "sessions": answer = SessionVectors.answer(input)
    default: return ["unsupported": .string("no such kind: \(kind)")]
    }
    switch answer {
    case .success(let result): return ["result": result]
    case .failure(let refusal): return ["error": .string(refusal.text)]
    }
  }
}
