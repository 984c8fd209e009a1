import VCProtoCore
import VCProtoJSON

/// SplitMix64: the engines' only source of randomness, seeded by the host, so a run is reproducible
/// and conversation vectors can name the exact delays. It spreads reconnects; it is not used for
/// anything secret (nonces and challenges come from the host).
///
/// `next()`: `state += 0x9E3779B97F4A7C15`; `z = state`; `z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9`;
/// `z = (z ^ (z >> 27)) * 0x94D049BB133111EB`; return `z ^ (z >> 31)` (all arithmetic mod 2^64).
/// `unit()` = `(next() >> 11) / 2^53`, in [0, 1).
struct SplitMix64: Sendable, Hashable {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func unit() -> Double { Double(next() >> 11) / 9_007_199_254_740_992.0 }
}
