import FuzzDriver
import VCProto
import VCProtoTestSupport

/// The connection engines on event sequences chosen by the input's bytes (see `EngineExerciser`): the
/// first byte picks the role (even: client, odd: server), the rest picks events, frames and time steps.
/// Invariants: no crash; an illegal event changes nothing; every state reached is in the transition
/// table; nothing but `connect`/`ping` leaves a client before authentication (a server: `hello`,
/// `pong`, `auth_error`, `error`, and `connected` when it authenticates); every buffer within its
/// bound; a stopped/refused client and a closed server emit nothing.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data, size > 0 else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var exerciser = EngineExerciser(bytes: Array(bytes.dropFirst()))
  let problem = bytes[0] % 2 == 0 ? exerciser.runClient() : exerciser.runServer()
  if let problem { preconditionFailure("engine invariant broken: \(problem)") }
  return 0
}

runFuzzer(fuzzOne)
