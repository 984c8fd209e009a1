import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// A clock the test moves by hand: ``advance(by:)`` wakes every sleeper whose deadline passed. A sleep
/// whose deadline already passed returns at once, so a test that advances before a host armed its
/// timer still fires it. No real time passes.
final class TestClock: Clock, Sendable {
  struct Instant: InstantProtocol {
    var offset: Duration
    func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    func duration(to other: Instant) -> Duration { other.offset - offset }
    static func < (l: Instant, r: Instant) -> Bool { l.offset < r.offset }
  }

  private struct Sleeper {
    var id: Int
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var sleepers: [Sleeper] = []
    var nextId = 0
  }

  private let state = Locked(State())

  var now: Instant { state.withLock { $0.now } }
  var minimumResolution: Duration { .zero }

  /// How many sleeps are waiting.
  var sleeping: Int { state.withLock { $0.sleepers.count } }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    let id = state.withLock { state in
      state.nextId += 1
      return state.nextId
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let ready: Result<Void, any Error>? = state.withLock { state in
          if Task.isCancelled { return .failure(CancellationError()) }
          if deadline <= state.now { return .success(()) }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return nil
        }
        if let ready { continuation.resume(with: ready) }
      }
    } onCancel: {
      let sleeper: Sleeper? = state.withLock { state in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the time forward and wakes the sleepers now due.
  func advance(by duration: Duration) {
    let due: [Sleeper] = state.withLock { state in
      state.now = state.now.advanced(by: duration)
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }
      state.sleepers.removeAll { $0.deadline <= now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }
}

@Suite struct TestClockTests {
  @Test func advanceWakesOnlyTheDueSleepers() async throws {
    let clock = TestClock()
    let early = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(1)), tolerance: nil) }
    let late = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(5)), tolerance: nil) }
    while clock.sleeping < 2 { await Task.yield() }
    clock.advance(by: .seconds(2))
    try await early.value
    #expect(clock.sleeping == 1)
    late.cancel()
    await #expect(throws: CancellationError.self) { try await late.value }
    #expect(clock.sleeping == 0)
  }

  @Test func aDeadlineAlreadyPassedReturnsAtOnce() async throws {
    let clock = TestClock()
    let deadline = clock.now.advanced(by: .seconds(1))
    clock.advance(by: .seconds(3))
    try await clock.sleep(until: deadline, tolerance: nil)
    #expect(clock.sleeping == 0)
  }
}
