import Foundation

/// The server's outstanding auth v2 challenges: each is single use and expires.
///
/// Thread-safe (a lock guards the table), so one store serves every connection. Time is passed in by
/// the caller, which keeps the store deterministic under test.
public final class ChallengeStore: @unchecked Sendable {
  /// How long a challenge stays valid after it was issued. Default 60 s.
  public let lifetime: Duration
  /// Most challenges outstanding at once; beyond it the oldest is forgotten. Defends against memory
  /// exhaustion by clients that open connections and never answer. Default 10,000.
  public let capacity: Int

  let lock = NSLock()
  var issued: [String: ContinuousClock.Instant] = [:]
  var order: [String] = []

  /// Creates a store.
  public init(lifetime: Duration = .seconds(60), capacity: Int = 10_000) {
    self.lifetime = lifetime
    self.capacity = max(1, capacity)
  }

  /// Issues a fresh challenge: 256 bits from the system's secure random source
  /// (`SystemRandomNumberGenerator`: `getrandom` on Linux, `arc4random` on Apple platforms), lowercase hex.
  public func issue(now: ContinuousClock.Instant) -> String {
    var rng = SystemRandomNumberGenerator()
    let challenge = Hex.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) })
    lock.lock()
    defer { lock.unlock() }
    issued[challenge] = now
    order.append(challenge)
    while order.count > capacity {
      issued[order.removeFirst()] = nil
    }
    return challenge
  }

  /// Consumes `challenge`: `true` exactly once per issued challenge, and only while it is younger
  /// than ``lifetime``. A consumed, expired or unknown challenge gives `false`.
  public func consume(_ challenge: String, now: ContinuousClock.Instant) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard let issuedAt = issued.removeValue(forKey: challenge) else { return false }
    order.removeAll { $0 == challenge }
    return now - issuedAt < lifetime
  }

  /// The number of outstanding challenges.
  public var outstanding: Int {
    lock.lock()
    defer { lock.unlock() }
    return issued.count
  }
}

extension ChallengeStore {
  /// Test support: puts a known challenge in place of an issued one (same issue time), so fixed
  /// vectors can run through the real store.
  func register(_ challenge: String, replacing issuedChallenge: String) {
    lock.lock()
    defer { lock.unlock() }
    guard let at = issued.removeValue(forKey: issuedChallenge) else { return }
    order.removeAll { $0 == issuedChallenge }
    issued[challenge] = at
    order.append(challenge)
  }
}
