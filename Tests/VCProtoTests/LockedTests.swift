import Dispatch
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

@Suite struct LockedTests {
  @Test func concurrentUpdatesAreNotLost() {
    let counter = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
    }
    #expect(counter.withLock { $0 } == 80_000)
  }

  @Test func anErrorThrownInsideReleasesTheLock() {
    struct Boom: Error {}
    let value = Locked([1])
    #expect(throws: Boom.self) { try value.withLock { (_: inout [Int]) throws(Boom) in throw Boom() } }
    #expect(value.withLock { $0 } == [1])  // would deadlock if the lock were still held
  }
}
