import VCProtoCore
import VCProtoJSON

/// The bounded buffer behind a host's `events` (``ClientHost/events``, ``ServerConnection/events``):
/// the host puts each event in at once (``yield(_:)`` never waits), and the transport's reader asks
/// for room (``waitForRoom(generation:)``) before it reads the next message. While `limit` events
/// wait for the application, the reader does not read: the peer is slowed by the transport's own
/// flow control (TCP), nothing is dropped, and what waits is at most `limit` events plus those one
/// received message produced (and those of timers and of the application's own calls, which the
/// peer does not drive).
///
/// One consumer iterates ``stream``; when its task is cancelled, the buffer is abandoned: what waits
/// is dropped, later events are dropped, and the reader is never held again (as an `AsyncStream`
/// whose iterator is gone).
final class HostEventBuffer<Element: Sendable>: Sendable {
  private struct State {
    var items: [Element] = []
    var head = 0
    var finished = false
    var abandoned = false
    var consumer: CheckedContinuation<Element?, Never>?
    var readers: [CheckedContinuation<Void, Never>] = []
    /// Readers of transports up to this generation are never held (their transport is closed).
    var releasedThrough = Int.min
    var peak = 0

    var count: Int { items.count - head }

    mutating func pop() -> Element {
      let item = items[head]
      head += 1
      if head == items.count {
        items.removeAll(keepingCapacity: true)
        head = 0
      } else if head >= 64 && head * 2 >= items.count {
        items.removeFirst(head)
        head = 0
      }
      return item
    }
  }

  /// Most events waiting before the reader stops reading (at least 1).
  let limit: Int
  private let state = Locked(State())

  init(limit: Int) {
    self.limit = max(1, limit)
  }

  /// The application's sequence: the events in order, then the end once ``finish()`` was called and
  /// every event was taken.
  func makeStream() -> AsyncStream<Element> {
    AsyncStream(unfolding: { await self.next() }, onCancel: { self.abandon() })
  }

  /// The events waiting now.
  var count: Int { state.withLock { $0.count } }

  /// The most events that ever waited at once.
  var peak: Int { state.withLock { $0.peak } }

  /// Adds `element` behind the others (dropped once finished or abandoned).
  func yield(_ element: Element) {
    let consumer: CheckedContinuation<Element?, Never>? = state.withLock { state in
      if state.finished || state.abandoned { return nil }
      if let consumer = state.consumer {
        state.consumer = nil
        return consumer
      }
      state.items.append(element)
      state.peak = max(state.peak, state.count)
      return nil
    }
    consumer?.resume(returning: element)
  }

  /// No event follows: the consumer gets what waits, then the end; no reader is held any more.
  func finish() {
    end { $0.finished = true }
  }

  /// Returns once the reader of the transport of `generation` may read a message: fewer than
  /// ``limit`` events wait, or the buffer finished or was abandoned, or that transport was
  /// released (``release(through:)``).
  func waitForRoom(generation: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state in
        if state.count < limit || state.finished || state.abandoned || generation <= state.releasedThrough {
          return true
        }
        state.readers.append(continuation)
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// The transports up to `generation` are closed: their readers read on to their close (what they
  /// read is ignored) and are never held again.
  func release(through generation: Int) {
    let readers = state.withLock { state in
      state.releasedThrough = max(state.releasedThrough, generation)
      defer { state.readers = [] }
      return state.readers
    }
    // A reader of the current transport woken here waits again before its next read.
    for reader in readers { reader.resume() }
  }

  private func next() async -> Element? {
    await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
      let (ready, readers): (Element??, [CheckedContinuation<Void, Never>]) = state.withLock { state in
        if state.count > 0 {
          let item = state.pop()
          guard state.count < limit else { return (.some(item), []) }
          defer { state.readers = [] }
          return (.some(item), state.readers)
        }
        if state.finished || state.abandoned { return (.some(nil), []) }
        precondition(state.consumer == nil, "two tasks iterate one host's events")
        state.consumer = continuation
        return (nil, [])
      }
      for reader in readers { reader.resume() }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  /// The consumer's task was cancelled: drop what waits and everything later.
  private func abandon() {
    end { state in
      state.abandoned = true
      state.items = []
      state.head = 0
    }
  }

  /// Applies `change` (which ends the buffer), then wakes a waiting consumer with the end (it waits
  /// only when nothing is buffered) and every held reader.
  private func end(_ change: (inout State) -> Void) {
    let (consumer, readers) = state.withLock { state in
      change(&state)
      defer {
        state.readers = []
        state.consumer = nil
      }
      return (state.consumer, state.readers)
    }
    consumer?.resume(returning: nil)
    for reader in readers { reader.resume() }
  }
}
