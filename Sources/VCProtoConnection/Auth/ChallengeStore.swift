import Foundation
import VCProtoCore
import VCProtoJSON

/// The server's outstanding auth v2 challenges: each is single use and expires.
///
/// Thread-safe (a lock guards the table), so one store serves every connection. Time is passed in by
/// the caller, which keeps the store deterministic under test.
///
/// Memory is bounded: at most ``capacity`` challenges are outstanding. Issuing first forgets the
/// expired ones, then, while the table is over capacity, the oldest outstanding ones. A flood of
/// more than ``capacity`` unanswered hellos within one ``lifetime`` therefore evicts honest clients'
/// challenges, whose answers then fail with the generic `auth_error` (they reconnect and get a new
/// one): a denial of service, never an acceptance. Size ``capacity`` above the expected hello rate
/// times ``lifetime``, and rate-limit connections per source in front of the server.
public final class ChallengeStore: Sendable {
  /// The default ``lifetime``: 60 seconds.
  public static let defaultLifetime: Duration = .seconds(60)
  /// The default ``capacity``: 10,000 outstanding challenges (about 1 MB).
  public static let defaultCapacity = 10_000

  /// How long a challenge stays valid after it was issued.
  public let lifetime: Duration
  /// Most challenges outstanding at once; beyond it the oldest are forgotten (see the type's
  /// documentation for what that means under a flood).
  public let capacity: Int

  /// The outstanding challenges, reachable only under their lock.
  let table = Locked(Table())

  /// The challenge table: issue times, and the issue order for eviction.
  struct Table {
    /// Issue times by challenge, by its exact scalars (``ExactString``).
    var issued: [ExactString: ContinuousClock.Instant] = [:]
    /// Challenges in issue order; entries already consumed are skipped lazily. `head` is the first
    /// live index, so eviction is amortized O(1).
    var order: [String] = []
    var head = 0

    /// Drops consumed entries at the head, expired challenges, then the oldest while over capacity
    /// (keeping room for one more), and compacts the queue so it never holds more than about twice
    /// `capacity` entries.
    mutating func purge(now: ContinuousClock.Instant, lifetime: Duration, capacity: Int) {
      while head < order.count {
        let oldest = order[head]
        guard let at = issued[ExactString(oldest)] else {
          head += 1  // already consumed
          continue
        }
        guard now - at >= lifetime || issued.count >= capacity else { break }
        issued[ExactString(oldest)] = nil
        head += 1
      }
      if order.count - head > 2 * capacity {
        // Mostly consumed entries behind a live head: keep only the live ones, in order.
        order = order[head...].filter { issued[ExactString($0)] != nil }
        head = 0
      } else if head > 64 && head * 2 > order.count {
        order.removeFirst(head)
        head = 0
      }
    }
  }

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - lifetime: how long a challenge may be answered after it was issued; must be positive.
  ///   - capacity: the most challenges kept at once (at least 1); when more are issued the oldest
  ///     are forgotten and their answers fail.
  public init(lifetime: Duration = ChallengeStore.defaultLifetime, capacity: Int = ChallengeStore.defaultCapacity) {
    precondition(lifetime > .zero, "ChallengeStore: lifetime must be positive")
    precondition(capacity >= 1, "ChallengeStore: capacity must be at least 1")
    self.lifetime = lifetime
    self.capacity = capacity
  }

  /// Issues a fresh challenge: 256 bits from the system's secure random source
  /// (`SystemRandomNumberGenerator`: `getrandom` on Linux, `arc4random` on Apple platforms), lowercase hex.
  public func issue(now: ContinuousClock.Instant) -> String {
    var rng = SystemRandomNumberGenerator()
    let challenge = Hex.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) })
    table.withLock { table in
      table.purge(now: now, lifetime: lifetime, capacity: capacity)
      table.issued[ExactString(challenge)] = now
      table.order.append(challenge)
    }
    return challenge
  }

  /// Consumes `challenge`: `true` exactly once per issued challenge, and only at a time `now` from its
  /// issue time (inclusive) to ``lifetime`` later (exclusive). A consumed, cancelled, expired, evicted
  /// or unknown challenge gives `false`, and so does a `now` earlier than the issue time (a clock
  /// that went backwards or a caller's mistake: refused rather than trusted); the challenge is
  /// consumed either way.
  public func consume(_ challenge: String, now: ContinuousClock.Instant) -> Bool {
    guard let issuedAt = table.withLock({ $0.issued.removeValue(forKey: ExactString(challenge)) }) else { return false }
    return now >= issuedAt && now - issuedAt < lifetime
  }

  /// Forgets `challenge` without answering it: call it when the connection whose hello carried the
  /// challenge closes, so the table holds only challenges someone can still answer. Later answers
  /// fail as for a consumed challenge. `false` when it was not outstanding (answered, expired,
  /// evicted, cancelled or unknown).
  @discardableResult
  public func cancel(_ challenge: String) -> Bool {
    table.withLock { $0.issued.removeValue(forKey: ExactString(challenge)) != nil }
  }

  /// The number of outstanding challenges.
  public var outstanding: Int {
    table.withLock { $0.issued.count }
  }
}

extension ChallengeStore {
  /// Test and vector support: puts a known challenge in place of an issued one (same issue time), so
  /// fixed vectors can run through the real store.
  package func register(_ challenge: String, replacing issuedChallenge: String) {
    table.withLock { table in
      guard let at = table.issued.removeValue(forKey: ExactString(issuedChallenge)) else { return }
      table.issued[ExactString(challenge)] = at
      table.order.append(challenge)
    }
  }
}
