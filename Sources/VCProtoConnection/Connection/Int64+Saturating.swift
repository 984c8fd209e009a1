import VCProtoCore
import VCProtoJSON

extension Int64 {
  /// `self + other`, held at `Int64.max` or `Int64.min` instead of overflowing: a deadline `now +
  /// interval` with an interval near `Int64.max` (a timer switched off in effect) is then "never".
  @inline(__always)
  func addingSaturating(_ other: Int64) -> Int64 {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? (other > 0 ? .max : .min) : sum
  }

  /// `self - other`, held at `Int64.max` or `Int64.min` instead of overflowing.
  @inline(__always)
  func subtractingSaturating(_ other: Int64) -> Int64 {
    let (difference, overflow) = subtractingReportingOverflow(other)
    return overflow ? (other < 0 ? .max : .min) : difference
  }

  /// `value` rounded down, held within `Int64` (NaN gives 0), instead of trapping as `Int64(_:)` does.
  @inline(__always)
  init(saturatingFloor value: Double) {
    if value.isNaN {
      self = 0
    } else if value >= 9_223_372_036_854_775_807.0 {
      self = .max
    } else if value <= -9_223_372_036_854_775_808.0 {
      self = .min
    } else {
      self = Int64(value.rounded(.down))
    }
  }
}
