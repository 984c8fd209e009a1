import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The engines' transition tables are keyed by enumerations (states and event kinds, `CaseIterable`):
/// every (state, event kind) pair is decided, the flat tables the engines consult agree with the
/// declared ones, and each case's row or column is its index in `allCases` (issue 30: the tables
/// were keyed by strings kept in parallel lists).
@Suite struct TransitionTableTests {
  /// One event of each client kind.
  static let clientEvents: [ClientEvent] = [
    .start, .resume, .stop(reason: "r"), .transportOpened(TransportID(1), clientNonce: "00"),
    .transportClosed(TransportID(1), detail: "d"), .received(.text(Array(#"{"type":"pong"}"#.utf8))),
    .timerFired(.ping), .subscribe(sessionId: "s", cursor: nil), .unsubscribe(sessionId: "s"),
    .send(.ping(PingMessage()), requestId: nil),
  ]

  /// One event of each server kind.
  static let serverEvents: [ServerEvent] = [
    .transportOpened(challenge: nil), .received(.text(Array(#"{"type":"ping"}"#.utf8))), .transportClosed,
    .timerFired(.heartbeat), .send(.pong(PongMessage())), .drain(retryAfterMs: 1, message: "m"), .close,
  ]

  @Test func everyClientPairIsDecidedAndTheFlatTableAgrees() {
    #expect(Set(ClientTransitions.table.keys) == Set(ClientState.allCases))
    for state in ClientState.allCases {
      #expect(Set(ClientTransitions.table[state]!.keys) == Set(ClientEventKind.allCases), "\(state)")
      for kind in ClientEventKind.allCases {
        let declared = ClientTransitions.table[state]![kind]!
        let mask = ClientState.allCases.filter(declared.contains).reduce(UInt16(0)) { $0 | 1 << $1.ordinal }
        #expect(ClientTransitions.mask(state, kind) == mask, "\(state) \(kind)")
        #expect(ClientTransitions.targets(from: state, on: kind) == (declared.isEmpty ? nil : declared))
        #expect(ClientTransitions.targets(from: state, on: kind.rawValue) == (declared.isEmpty ? nil : declared))
      }
    }
    // Every state accepts `stop`, and every kind is legal somewhere.
    for kind in ClientEventKind.allCases {
      #expect(ClientState.allCases.contains { ClientTransitions.targets(from: $0, on: kind) != nil }, "\(kind)")
    }
    #expect(ClientTransitions.targets(from: .ready, on: "no such event") == nil)
  }

  @Test func everyServerPairIsDecidedAndTheFlatTableAgrees() {
    #expect(Set(ServerTransitions.table.keys) == Set(ServerState.allCases))
    for state in ServerState.allCases {
      #expect(Set(ServerTransitions.table[state]!.keys) == Set(ServerEventKind.allCases), "\(state)")
      for kind in ServerEventKind.allCases {
        let declared = ServerTransitions.table[state]![kind]!
        let mask = ServerState.allCases.filter(declared.contains).reduce(UInt8(0)) { $0 | 1 << $1.ordinal }
        #expect(ServerTransitions.mask(state, kind) == mask, "\(state) \(kind)")
        #expect(ServerTransitions.targets(from: state, on: kind) == (declared.isEmpty ? nil : declared))
      }
    }
    for kind in ServerEventKind.allCases {
      #expect(ServerState.allCases.contains { ServerTransitions.targets(from: $0, on: kind) != nil }, "\(kind)")
    }
  }

  /// Rows and columns: each case's ordinal is its index in `allCases`, so no two share a row or column.
  @Test func ordinalsAreTheIndicesInAllCases() {
    for (index, state) in ClientState.allCases.enumerated() { #expect(state.ordinal == index) }
    for (index, state) in ServerState.allCases.enumerated() { #expect(state.ordinal == index) }
    for (index, kind) in ClientEventKind.allCases.enumerated() { #expect(kind.ordinal == index) }
    for (index, kind) in ServerEventKind.allCases.enumerated() { #expect(kind.ordinal == index) }
    #expect(ClientState.allCases.count <= UInt16.bitWidth && ServerState.allCases.count <= UInt8.bitWidth)
  }

  /// Each event has the kind of its case, and its name is the kind's raw value.
  @Test func everyEventHasItsKind() {
    #expect(Self.clientEvents.map(\.kind) == ClientEventKind.allCases)
    #expect(Self.clientEvents.map(\.name) == ClientEventKind.allCases.map(\.rawValue))
    #expect(Self.serverEvents.map(\.kind) == ServerEventKind.allCases)
    #expect(Self.serverEvents.map(\.name) == ServerEventKind.allCases.map(\.rawValue))
  }
}
