import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// The connections of a capture whose conversations ``CaptureValidation`` is following, each with
/// its ``ConversationCheck``, at most ``CaptureValidation/maxOpenConnections`` at once (the least
/// recently seen is forgotten first; its next frame starts it again as a new connection). Each
/// check is changed where it is kept, never copied per frame.
struct OpenConnections {
  /// One connection's check, kept by reference so that checking a frame changes it in place (a
  /// ``ConversationObserver`` is a large value).
  private final class Entry {
    var check: ConversationCheck
    var lastSeen: Int

    init(check: ConversationCheck, lastSeen: Int) {
      self.check = check
      self.lastSeen = lastSeen
    }
  }

  /// What a new connection's conversation starts as.
  private let fresh: ConversationCheck
  private var entries: [Int: Entry] = [:]
  private var seen = 0

  /// Connections checked with `checker`, each starting as `observer`.
  init(checker: FrameChecker, observer: ConversationObserver) {
    fresh = ConversationCheck(checker: checker, observer: observer)
  }

  /// What checking the next frame of each connection on its own depends on, as things stand.
  var contexts: Contexts {
    Contexts(fresh: fresh.nextContext, open: entries.mapValues(\.check.nextContext))
  }

  /// What checking the next frame of each connection on its own depends on, at one moment.
  struct Contexts: Sendable {
    /// A connection not open starts so.
    var fresh: FrameCheckContext
    /// The open ones, by capture connection.
    var open: [Int: FrameCheckContext]

    /// The context of the next frame of `connection`.
    func of(_ connection: Int) -> FrameCheckContext { open[connection] ?? fresh }
  }

  /// Checks the next frame (of its connection; a connection not open starts fresh).
  mutating func check(_ frame: CapturedFrame, prechecked: PrecheckedFrame? = nil) -> FrameOutcome {
    seen += 1
    let entry: Entry
    if let known = entries[frame.connection] {
      entry = known
      entry.lastSeen = seen
    } else {
      if entries.count >= CaptureValidation.maxOpenConnections,
        let oldest = entries.min(by: { $0.value.lastSeen < $1.value.lastSeen })
      {
        entries[oldest.key] = nil
      }
      entry = Entry(check: fresh, lastSeen: seen)
      entries[frame.connection] = entry
    }
    return entry.check.check(frame, prechecked: prechecked)
  }
}
