import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Collects what an async sequence yields, so a test can wait for an element without a sleep:
/// ``next(_:where:)`` returns the first element after `from` that matches, suspending until it arrives.
final class EventLog<Element: Sendable>: Sendable {
  private struct State {
    var elements: [Element] = []
    var finished = false
    var waiters: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let state = Locked(State())
  private let task: Task<Void, Never>

  init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
    let state = self.state
    task = Task {
      do {
        for try await element in sequence { Self.append(element, to: state) }
      } catch {}
      let waiters = state.withLock { state in
        state.finished = true
        defer { state.waiters = [] }
        return state.waiters
      }
      for waiter in waiters { waiter.continuation.resume() }
    }
  }

  private static func append(_ element: Element, to state: Locked<State>) {
    let waiters = state.withLock { state in
      state.elements.append(element)
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.continuation.resume() }
  }

  var elements: [Element] { state.withLock { $0.elements } }
  var isFinished: Bool { state.withLock { $0.finished } }

  /// The index and value of the first element at or after `from` that matches; `nil` if the
  /// sequence finished without one.
  func next(from: Int = 0, where matches: (Element) -> Bool) async -> (index: Int, element: Element)? {
    while true {
      let found: (Int, Element)?? = state.withLock { state in
        for index in from..<max(from, state.elements.count) where matches(state.elements[index]) {
          return .some((index, state.elements[index]))
        }
        return state.finished ? .some(nil) : nil
      }
      if let found { return found.map { (index: $0.0, element: $0.1) } }
      await withCheckedContinuation { continuation in
        let ready = state.withLock { state in
          if state.finished || state.elements.count > from && state.elements[from...].contains(where: matches) {
            return true
          }
          state.waiters.append((0, continuation))
          return false
        }
        if ready { continuation.resume() }
      }
    }
  }

  /// Waits until the sequence finished.
  func finished() async {
    _ = await next(from: Int.max / 2) { _ in false }
    await task.value
  }
}

/// Runs `body`, failing the test if it takes longer than `seconds` of real time: a guard against a
/// test that would hang, not a clock any test waits on.
func withDeadline<T: Sendable>(
  seconds: Int = 20, sourceLocation: SourceLocation = #_sourceLocation, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await body() }
    group.addTask {
      try await Task.sleep(for: .seconds(seconds))
      return nil
    }
    defer { group.cancelAll() }
    guard let result = try await group.next(), let value = result else {
      Issue.record("took longer than \(seconds) s", sourceLocation: sourceLocation)
      throw CancellationError()
    }
    return value
  }
}
