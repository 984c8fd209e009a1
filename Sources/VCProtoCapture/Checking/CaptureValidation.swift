import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

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
///
/// With ``workers`` above 1, frames are read a window at a time (``window``) and each frame of the
/// window is checked on its own on that many threads at once, in the context its connection is in
/// when the window is read (``FrameCheckContext``); then, in capture order on one thread, each
/// frame goes through its connection's conversation, which uses the check made ahead only if the
/// frame's turn comes in that same context (after a handshake changes the version, the frames
/// behind it in the window are checked again). Outcomes, findings and their order are those of one
/// thread; memory is bounded by the window.
package struct CaptureValidation {
  /// How each frame is checked on its own.
  var checker: FrameChecker
  /// The version used when the capture has no handshake (`--protocol`, default 0.5.0).
  var defaultVersion: ProtocolVersion
  /// Whether `--protocol` was given: it is then also the floor assumed for a negotiating server.
  var explicitVersion = false
  /// Threads checking frames on their own at once (`--jobs`); 1: everything on the caller's thread.
  var workers = 1
  /// Most frames read ahead and checked at once when ``workers`` is above 1.
  var window = Window()

  /// Bounds on the frames read ahead: the frames' count and their bytes. A frame over the bytes'
  /// bound is read whole (each is bounded by the reader's limits) and checked alone, in a window of
  /// its own.
  struct Window: Sendable {
    var frames = 512
    var bytes = 1024 * 1024
  }

  /// Most connections whose conversations are followed at once: a capture that interleaves more
  /// (JSON Lines records with `connection`) has the least recently seen one forgotten, and its next
  /// frame starts it again as a new connection.
  static let maxOpenConnections = 4_096

  /// Runs over a reader; calls `emit` for each outcome (with conversation findings added), in the
  /// capture's order. A read error ends the run after the frames read before it are emitted.
  func run(
    _ reader: CaptureReader, progress: (Int, Int) -> Void = { _, _ in }, emit: (FrameOutcome) -> Void
  ) throws {
    var connections = OpenConnections(
      checker: checker,
      observer: ConversationObserver(fallbackVersion: defaultVersion, explicitVersion: explicitVersion))
    var frames = 0
    func settle(_ frame: CapturedFrame, _ prechecked: PrecheckedFrame?) -> Void {
      let outcome = connections.check(frame, prechecked: prechecked)
      frames += outcome.isFrame ? 1 : 0
      emit(outcome)
      progress(reader.bytesRead, frames)
    }
    guard workers > 1 else {
      while let frame = try reader.next() { settle(frame, nil) }
      return
    }
    if let jsonLines = reader as? JSONLinesReader {
      // Only the lines are split here: each is made into its frame on the checking threads.
      let framing = jsonLines.framing
      try inWindows(
        next: jsonLines.lines.next, size: Self.size, frame: { framing.frame($0) },
        connections: { connections.contexts },
        settle: settle)
    } else {
      try inWindows(
        next: reader.next, size: Self.size, frame: { $0 }, connections: { connections.contexts }, settle: settle)
    }
  }

  /// Reads items a window at a time; on ``workers`` threads makes each into its frame (`nil`: none)
  /// and checks it on its own in the context its connection has when the window was read; then
  /// settles each frame in order. Items read before a read error are settled before it is thrown.
  private func inWindows<Item: Sendable>(
    next: () throws -> Item?, size: (Item) -> Int, frame: @escaping @Sendable (Item) -> CapturedFrame?,
    connections: () -> OpenConnections.Contexts, settle: (CapturedFrame, PrecheckedFrame) -> Void
  ) throws {
    var items: [Item] = []
    var carried: Item?
    var ended = false
    var failure: Error?
    repeat {
      items.removeAll(keepingCapacity: true)
      var bytes = 0
      if let item = carried {
        items.append(item)
        bytes = size(item)
        carried = nil
      }
      do {
        // A window is either items of at most `window.bytes` in all or one larger item alone (the
        // item that does not fit waits for the next window), so a large frame is checked while no
        // other is, as on one thread.
        while !ended, failure == nil, items.count < window.frames, bytes < window.bytes {
          guard let item = try next() else {
            ended = true
            break
          }
          let itemBytes = size(item)
          if !items.isEmpty, bytes + itemBytes > window.bytes {
            carried = item
            break
          }
          bytes += itemBytes
          items.append(item)
        }
      } catch {
        failure = error
      }
      let (checker, pending, contexts) = (self.checker, items, connections())
      let checked = concurrentMap(count: pending.count, workers: workers) { i -> (CapturedFrame, PrecheckedFrame)? in
        guard let frame = frame(pending[i]) else { return nil }
        let context = contexts.of(frame.connection)
        let outcome = checker.check(frame, protocolVersion: context.version, needsMessage: context.needsMessage)
        return (frame, PrecheckedFrame(context: context, outcome: outcome))
      }
      for case (let frame, let prechecked)? in checked { settle(frame, prechecked) }
    } while carried != nil || (!ended && failure == nil)
    if let failure { throw failure }
  }

  /// The bytes a window counts for a frame: its payload's.
  private static func size(_ frame: CapturedFrame) -> Int {
    switch frame.payload {
    case .text(let payload)?, .binary(let payload)?: payload.count
    case nil: 0
    }
  }

  /// The bytes a window counts for a line.
  private static func size(_ line: LineSplitter.Line) -> Int {
    switch line {
    case .line(_, let bytes): bytes.count
    case .tooLong: 0
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
