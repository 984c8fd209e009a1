import VCProtoCore
import VCProtoJSON

/// The kinds of ``ServerEvent``: the columns of `ServerTransitions.table`, named as in errors and
/// vectors (``ServerEvent/name``).
public enum ServerEventKind: String, Sendable, Hashable, CaseIterable {
  /// ``ServerEvent/transportOpened(challenge:connectionId:)``.
  case transportOpened = "transport_opened"
  /// ``ServerEvent/received(_:)``.
  case received
  /// ``ServerEvent/transportClosed``.
  case transportClosed = "transport_closed"
  /// ``ServerEvent/timerFired(_:)``.
  case timer
  /// ``ServerEvent/send(_:)``.
  case send
  /// ``ServerEvent/drain(retryAfterMs:message:)``.
  case drain
  /// ``ServerEvent/close``.
  case close
}

extension ServerEventKind: TransitionIndexed {
  /// The kind's index in ``allCases`` (its column of `ServerTransitions.flat`).
  var ordinal: Int {
    switch self {
    case .transportOpened: return 0
    case .received: return 1
    case .transportClosed: return 2
    case .timer: return 3
    case .send: return 4
    case .drain: return 5
    case .close: return 6
    }
  }
}
