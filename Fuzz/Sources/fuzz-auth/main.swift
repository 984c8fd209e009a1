import FuzzDriver
import VCProto

/// The auth v2 server verifier on arbitrary `connect` frames: never a crash, never a success without
/// the right answer, the challenge is consumed by any attempt, and a success never grants
/// authenticated frames to auth v1.
let offer = ServerOffer(versions: .legacy, authVersions: [1, 2], capabilities: ["authenticated_frames"])

func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard
    case .client(.connect(let connect))? = try? MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decode(
      bytes)
  else { return 0 }
  let store = ChallengeStore()
  let now = ContinuousClock.now
  let hello = offer.hello(challenge: store.issue(now: now))
  let server = AuthServer(apiKey: "untethered-00112233445566778899aabbccddeeff")
  let outcome = NegotiationOutcome(version: .v0_2_0, capabilities: ["authenticated_frames"])
  let result = server.verify(connect, hello: hello, store: store, outcome: outcome, sessionId: "s", now: now)
  if case .success(let s) = result {
    // Only the real key passes v1; v2 cannot pass because the fuzzer cannot know the fresh challenge.
    precondition(s.authVersion == 1 && connect.apiKey == server.apiKey, "accepted a wrong answer")
    precondition(s.channel == nil && s.connected.serverProof == nil, "auth v1 got v2 material")
  }
  if connect.authResponse != nil {
    precondition(!store.consume(hello.challenge!, now: now), "challenge not consumed")
  }
  return 0
}

runFuzzer(fuzzOne)
