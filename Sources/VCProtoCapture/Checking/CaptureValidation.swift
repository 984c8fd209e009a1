import VCProto

/// Validates one capture, streaming: reads a frame, checks it on its own, hands it to a
/// ``ConversationObserver`` for the conversation's rules, reports the findings, forgets the frame.
/// Memory does not grow with the capture. The rules are the library's; this type only reads, feeds
/// and reports.
///
/// Each connection is checked against the version its handshake gives
/// (``ConversationObserver/protocolVersion``); a new capture connection or a `hello` starts a new
/// one. Connections may interleave (records naming their `connection`): each has its own
/// ``ConversationCheck``, at most ``maxOpenConnections`` at once. The frame that changes the version (`hello`, `connect`, `connected`) is itself checked
/// against the new version.
package struct CaptureValidation {
  /// How each frame is checked on its own.
  var checker: FrameChecker
  /// The version used when the capture has no handshake (`--protocol`, default 0.5.0).
  var defaultVersion: ProtocolVersion
  /// Whether `--protocol` was given: it is then also the floor assumed for a negotiating server.
  var explicitVersion = false

  /// Most connections whose conversations are followed at once: a capture that interleaves more
  /// (JSON Lines records with `connection`) has the least recently seen one forgotten, and its next
  /// frame starts it again as a new connection.
  static let maxOpenConnections = 4_096

  /// Runs over a reader; calls `emit` for each outcome (with conversation findings added).
  func run(
    _ reader: CaptureReader, progress: (Int, Int) -> Void = { _, _ in }, emit: (FrameOutcome) -> Void
  ) throws {
    var open: [Int: (check: ConversationCheck, lastSeen: Int)] = [:]
    var last = ConversationObserver(fallbackVersion: defaultVersion, explicitVersion: explicitVersion)
    var started = false
    var frames = 0
    var seen = 0
    while let frame = try reader.next() {
      seen += 1
      var check: ConversationCheck
      if let known = open.removeValue(forKey: frame.connection) {
        check = known.check
      } else {
        // A new connection: what the last one's observer starts (the first one as created).
        if started { last.startConnection() }
        started = true
        check = ConversationCheck(checker: checker, observer: last)
        if open.count >= Self.maxOpenConnections, let oldest = open.min(by: { $0.value.lastSeen < $1.value.lastSeen }) {
          open[oldest.key] = nil
        }
      }
      let outcome = check.check(frame)
      last = check.observer
      open[frame.connection] = (check, seen)
      frames += outcome.isFrame ? 1 : 0
      emit(outcome)
      progress(reader.bytesRead, frames)
    }
  }

  /// A capture's time in seconds as the observer's milliseconds; `nil` when it is not finite or
  /// beyond what 64 bits hold (about 292 million years).
  static func milliseconds(_ seconds: Double) -> Int64? {
    let value = (seconds * 1_000).rounded()
    guard value.isFinite, abs(value) < 9.0e18 else { return nil }
    return Int64(value)
  }
}
