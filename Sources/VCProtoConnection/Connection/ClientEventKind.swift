import VCProtoCore
import VCProtoJSON

/// The kinds of ``ClientEvent``: the columns of `ClientTransitions.table`, named as in errors and
/// vectors (``ClientEvent/name``).
public enum ClientEventKind: String, Sendable, Hashable, CaseIterable {
  /// ``ClientEvent/start``.
  case start
  /// ``ClientEvent/resume``.
  case resume
  /// ``ClientEvent/stop(reason:)``.
  case stop
  /// ``ClientEvent/transportOpened(_:clientNonce:)``.
  case transportOpened = "transport_opened"
  /// ``ClientEvent/transportClosed(_:detail:)``.
  case transportClosed = "transport_closed"
  /// ``ClientEvent/received(_:)``.
  case frame
  /// ``ClientEvent/timerFired(_:)``.
  case timer
  /// ``ClientEvent/subscribe(sessionId:cursor:)``.
  case subscribe
  /// ``ClientEvent/unsubscribe(sessionId:)``.
  case unsubscribe
  /// ``ClientEvent/send(_:requestId:)``.
  case send
}

extension ClientEventKind: TransitionIndexed {
  /// The kind's index in ``allCases`` (its column of `ClientTransitions.flat`).
  var ordinal: Int {
    switch self {
    case .start: return 0
    case .resume: return 1
    case .stop: return 2
    case .transportOpened: return 3
    case .transportClosed: return 4
    case .frame: return 5
    case .timer: return 6
    case .subscribe: return 7
    case .unsubscribe: return 8
    case .send: return 9
    }
  }
}
