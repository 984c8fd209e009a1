import Dispatch
import Foundation

/// `(0..<count).map(transform)` on `workers` threads at once (Dispatch's `concurrentPerform`), the
/// results in index order. Each thread takes the next few indices not yet taken, so a long element
/// holds up only its own thread. For work that shares no mutable state.
func concurrentMap<T: Sendable>(count: Int, workers: Int, _ transform: @Sendable (Int) -> T) -> [T] {
  guard workers > 1, count > 1 else { return (0..<count).map(transform) }
  let claims = Claims(count: count, step: max(1, min(8, count / (workers * 16))))
  return [T](unsafeUninitializedCapacity: count) { buffer, filled in
    let results = Results(buffer)
    DispatchQueue.concurrentPerform(iterations: min(workers, count)) { _ in
      while let range = claims.next() {
        for i in range { results.set(i, transform(i)) }
      }
    }
    filled = count
  }
}

/// The indices not yet taken, handed out a few at a time under a lock.
private final class Claims: @unchecked Sendable {
  private let lock = NSLock()
  private var taken = 0
  private let count: Int
  private let step: Int

  init(count: Int, step: Int) {
    self.count = count
    self.step = step
  }

  func next() -> Range<Int>? {
    lock.lock()
    defer { lock.unlock() }
    guard taken < count else { return nil }
    let range = taken..<Swift.min(count, taken + step)
    taken = range.upperBound
    return range
  }
}

/// The results' memory: each index is written once, by the one thread that claimed it.
private struct Results<T>: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<T>

  init(_ buffer: UnsafeMutableBufferPointer<T>) { self.buffer = buffer }

  func set(_ index: Int, _ value: T) { (buffer.baseAddress! + index).initialize(to: value) }
}
