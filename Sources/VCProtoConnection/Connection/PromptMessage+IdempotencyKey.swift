import VCProtoCore
import VCProtoJSON

extension PromptMessage {
  /// The prompt's `idempotency_key` (`idempotent_prompt` extension), whatever the version's payload.
  var idempotencyKey: String? {
    switch self {
    case .v0_2_0(let m): return m.idempotencyKey
    case .v0_3_0(let m): return m.idempotencyKey
    }
  }
}
