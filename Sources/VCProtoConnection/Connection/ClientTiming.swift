import VCProtoCore
import VCProtoJSON

/// The client engine's timers and backoff, in milliseconds (STANDARDS.md section "Conversation state
/// machine" gives the reasons).
///
/// Valid ranges: every timer duration (connect, ping, pong, heartbeat, handshake, continuation, request)
/// 1 ms to `Int64.max`; the backoff base, cap and floor 0 to `Int64.max`; ``jitter`` 0 to 1;
/// ``maxReconnectAttempts`` 0 or more. A ``ClientEngine`` holds a value outside its range to the
/// nearest end (a NaN jitter to 0), and its deadlines stop at `Int64.max` instead of overflowing, so
/// a duration near `Int64.max` switches that timer off in effect.
public struct ClientTiming: Sendable, Hashable {
  /// Keepalive `ping` period, first one this long after authentication: 30 s, as the real iOS, Android
  /// and web clients do.
  public var pingIntervalMs: Int64 = 30_000
  /// How long after a `ping` the client waits for any frame before declaring the connection dead:
  /// 15 s. The real clients have no deadline (a dead peer is noticed only when the OS fails a read,
  /// which on a half-open mobile connection can take minutes). The server answers `ping` at once, so
  /// 15 s covers a slow mobile round trip plus a large frame queued ahead of the `pong`, and it is
  /// half the ping period, so at most one ping is ever outstanding. Any frame counts as an answer.
  /// Any value works with any ``pingIntervalMs``: the deadline is armed by the oldest unanswered ping
  /// and a later ping never pushes it back, so a silent peer is declared dead this long after the
  /// first ping it did not answer (with a timeout longer than the interval, more pings go out meanwhile).
  public var pongTimeoutMs: Int64 = 15_000
  /// Heartbeat extension: with no frame for this long the connection is dead (90 s, two server
  /// heartbeats of 45 s; the resilience design's value).
  public var heartbeatTimeoutMs: Int64 = 90_000
  /// From ``ClientAction/openTransport(_:)`` to the socket open (TCP connect, TLS, the WebSocket
  /// upgrade): 15 s; then the transport is closed (``CloseReason/connectTimeout``) and the client backs
  /// off. The real clients have none, so a connect or upgrade that hangs left them `connecting` for as
  /// long as the OS waited (minutes on a half-open mobile link). A healthy open takes a few round trips;
  /// 15 s leaves room for a slow mobile link, and is half the handshake timeout that follows.
  public var connectTimeoutMs: Int64 = 15_000
  /// From the socket opening to an authenticated connection: 30 s (the real client has none, so a
  /// server that never sends `hello` holds it forever).
  public var handshakeTimeoutMs: Int64 = 30_000
  /// Backoff base: attempt n waits `base * 2^n`, capped, with jitter: 1 s (the real clients' value).
  public var backoffBaseMs: Int64 = 1_000
  /// Backoff cap: 30 s (the real clients' value). It holds after jitter: no delay is longer (the real
  /// clients jitter the capped delay, so theirs reach 37.5 s).
  public var backoffCapMs: Int64 = 30_000
  /// Backoff floor after jitter: 1 s (iOS and the web client floor the jittered delay at 1 s). The
  /// cap wins when the floor is larger.
  public var backoffFloorMs: Int64 = 1_000
  /// Jitter: the delay is multiplied by `1 + jitter * (2u - 1)`, u uniform in [0, 1): ±25 %, as iOS;
  /// then floored and capped, so at the cap the jitter only shortens a delay.
  public var jitter: Double = 0.25
  /// Attempts before giving up; `nil` (the default) never gives up. iOS stops after 20 attempts
  /// (about 8 minutes), so a server restart longer than that needs the user; retrying every 30 s
  /// costs one connection attempt per 30 s and recovers on its own.
  public var maxReconnectAttempts: Int? = nil
  /// Consecutive `auth_error`s before the client stops and asks for a new key: 3. One `auth_error`
  /// can be transient (an auth v2 challenge evicted under load), and the real client's stop after a
  /// single one turned a pre-authentication send into a permanent outage.
  public var authFailuresBeforeReauth: Int = 3
  /// Retry delay for a continuation whose `next_offset` did not advance (a half-written last line):
  /// 1 s. The real client aborts such a chain and shows "stalled".
  public var continuationRetryMs: Int64 = 1_000
  /// How long a request waits for its answer before it fails with ``RequestFailure/timeout``: 120 s.
  /// An `error` that cannot be tied to a request (a coded error, "Internal error: ...") leaves it
  /// waiting, and without a deadline it would wait until the connection drops. The real server
  /// answers these requests at once or after work it bounds itself (name inference 10 s, a provider
  /// window's readiness 20 s), so 120 s is six times the longest such bound and leaves room for a
  /// slow mobile link carrying a large frame queued ahead of the answer; it is also the longest the
  /// real iOS client waits for an answer (a quick prompt's, 120 s).
  public var requestTimeoutMs: Int64 = 120_000
  /// The same for the requests whose answer comes after long work (``ClientEngine/slowRequestTypes``:
  /// `compact_session`, `create_worktree_session`): 1 h 2 min. The real server gives a compaction,
  /// and the Claude run behind a new worktree session, up to 1 h before it answers with an error
  /// itself; the 2 minutes are the ordinary request timeout's margin on top.
  public var slowRequestTimeoutMs: Int64 = 3_720_000

  /// The defaults.
  public init() {}
}
