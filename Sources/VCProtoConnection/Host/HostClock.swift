import Foundation
import VCProtoCore
import VCProtoJSON

/// A host's view of a `Clock`: the engines' time in milliseconds, and a sleep until such a time.
/// The milliseconds are the wall time when the host was made (milliseconds since 1970) plus the
/// clock's time since then, so deadlines the engines announce (``ClientApplicationEvent/reconnectScheduled(attempt:at:)``)
/// read as wall times while every timer runs on the injected clock.
struct HostClock: Sendable {
  /// Now, in milliseconds.
  let now: @Sendable () -> Int64
  /// Sleeps until `now()` reaches the argument; throws `CancellationError` when cancelled.
  let sleep: @Sendable (Int64) async throws -> Void

  init<C: Clock>(_ clock: C) where C.Duration == Duration {
    let origin = clock.now
    let wall = Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down))
    now = { wall.addingSaturating(Self.milliseconds(origin.duration(to: clock.now))) }
    sleep = { deadline in
      let offset = deadline.subtractingSaturating(wall)
      try await clock.sleep(until: origin.advanced(by: .milliseconds(offset)), tolerance: nil)
    }
  }

  /// Whole milliseconds in `duration` (rounded down).
  static func milliseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds.multipliedReportingOverflow(by: 1_000).partialValue
      .addingSaturating(attoseconds / 1_000_000_000_000_000)
  }
}
