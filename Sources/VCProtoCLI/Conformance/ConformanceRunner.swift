import VCProtoCapture
import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// Runs the tests of `vcproto conformance` one by one against the peer: the handshake, one request
/// and one reply per test, and a restart after anything that leaves the pipe in an unknown state
/// (a crash, a timeout, garbage, an answer for another test, too long a line).
final class ConformanceRunner {
  /// The version of the pipe protocol (the handshake's `conformance`).
  static let protocolVersion = 1
  /// After this many failed restarts in a row the remaining tests fail without another attempt.
  static let maxRestartsInARow = 3

  let options: ConformanceCommand.Options
  let peer: ConformancePeer
  /// The kinds the peer said it supports (from the first handshake).
  private(set) var supported: Set<String> = []
  private var failedRestarts = 0

  init(options: ConformanceCommand.Options, directory: String) {
    self.options = options
    peer = ConformancePeer(command: options.command, maxReplyBytes: options.maxReplyBytes, directory: directory)
  }

  /// How long a peer may take to start and send its handshake: the per-test timeout, but at least
  /// 30 s (an interpreter loading its libraries on a busy machine is not a hang).
  var startTimeout: Double { max(options.timeout, Self.minimumStartTimeout) }
  static let minimumStartTimeout = 30.0

  /// Starts the peer and reads its handshake: `{"conformance": 1, "kinds": [...]}`.
  func startPeer() throws(ConformancePeer.Failure) {
    try peer.start()
    let line: [UInt8]
    do throws(ConformancePeer.Failure) {
      line = try peer.receive(timeout: startTimeout)
    } catch {
      peer.stop(gracefully: false)
      throw .notStarted("no handshake: \(error)")
    }
    let parsed = parse(line)
    guard case .success(let hello) = parsed, hello["conformance"]?.intValue == Self.protocolVersion,
      let kinds = hello["kinds"]?.arrayValue?.compactMap(\.stringValue)
    else {
      peer.stop(gracefully: false)
      var why = ""
      if case .failure(let error) = parsed { why = " (\(error))" }
      throw .notStarted(
        "the first line is not a handshake {\"conformance\": \(Self.protocolVersion), \"kinds\": [...]}: "
          + excerpt(line) + why)
    }
    supported = Set(kinds)
  }

  /// Runs one test: `true` passed, `false` failed (with why), `nil` skipped (with why).
  func run(_ test: ConformanceTestCase, kind: ConformanceKind) -> (Bool?, String) {
    guard supported.contains(test.kind) else { return (nil, "the peer does not support \(test.kind)") }
    let input: JSONValue
    switch kind.input(test.vector) {
    case .success(let value): input = value
    case .failure(let problem): return (false, "bad vector: \(problem.text)")
    }
    if !peer.isRunning {
      guard failedRestarts < Self.maxRestartsInARow else { return (false, "not run: the peer no longer starts") }
      do throws(ConformancePeer.Failure) {
        try startPeer()
        failedRestarts = 0
      } catch {
        failedRestarts += 1
        return (false, "restarting the peer: \(error)")
      }
    }
    var writer = JSONWriter()
    writer.write(
      .object(
        JSONObject([
          .init(key: "id", value: .string(test.name)), .init(key: "kind", value: .string(test.kind)),
          .init(key: "input", value: input),
        ])))
    let request = writer.bytes + [UInt8(ascii: "\n")]
    let line: [UInt8]
    do throws(ConformancePeer.Failure) {
      try peer.send(request, timeout: options.timeout)
      line = try peer.receive(timeout: options.timeout)
    } catch {
      peer.stop(gracefully: false)
      return (false, "\(error)")
    }
    let reply: JSONValue
    switch parse(line) {
    case .success(let value) where value.objectValue != nil: reply = value
    case .success(let value):
      peer.stop(gracefully: false)
      return (false, "the peer answered garbage (a JSON \(value.typeName), not an object): \(excerpt(line))")
    case .failure(let error):
      peer.stop(gracefully: false)
      return (false, "the peer answered garbage (not JSON: \(error)): \(excerpt(line))")
    }
    guard reply["id"]?.stringValue == test.name else {
      peer.stop(gracefully: false)
      return (false, "the peer answered for \(ConformanceKind.show(reply["id"])), not for this test")
    }
    return kind.judge(reply, vector: test.vector)
  }

  /// One line of the peer as JSON, or why it is not.
  private func parse(_ line: [UInt8]) -> Result<JSONValue, JSONReadError> {
    do throws(JSONReadError) {
      return .success(try JSONReader(limits: replyLimits).parse(line))
    } catch {
      return .failure(error)
    }
  }

  /// Replies are bounded by the option; their strings may be as long as the line.
  private var replyLimits: JSONLimits {
    var limits = JSONLimits.default
    limits.maxFrameBytes = options.maxReplyBytes
    limits.maxStringBytes = options.maxReplyBytes
    return limits
  }

  /// The start of a line, for a failure message: at most ``excerptScalars`` Unicode scalars, key-shaped
  /// text masked (``Redaction/truncated(_:limit:)``), then `…` when the line goes on. Only the first
  /// `4 * excerptScalars + 64` bytes are decoded: that many bytes hold more than ``excerptScalars``
  /// scalars whatever they are, so a character is never split at the cut (a cut inside a UTF-8
  /// sequence would print U+FFFD), a key that starts inside the quoted part is whole when it is
  /// masked, and a long line costs no more than a short one.
  private func excerpt(_ line: [UInt8]) -> String {
    guard !line.isEmpty else { return "an empty line" }
    let text = String(decoding: line.prefix(4 * Self.excerptScalars + 64), as: UTF8.self)
    return "\"\(Redaction.truncated(text, limit: Self.excerptScalars))\""
  }

  /// How many Unicode scalars of a peer's line a failure message quotes.
  static let excerptScalars = 120
}
