import VCProtoCore
import VCProtoJSON

/// Which pending request a server's `error` frame refuses (STANDARDS.md#requests).
///
/// An `error` carries no request id. What ties it to a request is what the real server does: each
/// request handler refuses a bad request synchronously with its own fixed messages (the catalog lists
/// them per request type, `errors`), the server handles one socket's frames in order, so its
/// synchronous replies come back in request order; and `Unknown message type: <type>` names the type.
/// So an `error` refuses the oldest pending request of the one type whose messages it matches (and,
/// when the `error` names a `session_id`, of that session). Anything else is not attributed: the
/// frame goes to the application as received, and no request is failed, because failing the oldest
/// one could fail the wrong one.
enum ErrorAttribution {
  /// For each request type, the `error` messages its handler sends instead of an answer (`<...>`
  /// stands for any text), from the catalog (``MessageSpec/refusals``, declared once there). Left out
  /// there on purpose: messages the server can also send later, after the request was answered, for
  /// another request of the same session (`prompt`: "Compaction in progress ...", "Failed to dispatch
  /// prompt: ...", 0.2.0's Claude failure text; `start_recipe`: "tmux dispatch failed: ...",
  /// "Compaction in progress ..."), and messages any handler can send ("Error processing message:
  /// ...", "Internal error: ...").
  static let refusals: [String: [String]] = ProtocolCatalog.declaration.messages.reduce(into: [:]) { table, spec in
    guard !spec.refusals.isEmpty else { return }
    for template in spec.refusals where !(table[spec.type] ?? []).contains(template) {
      table[spec.type, default: []].append(template)
    }
  }

  /// The server's answer to a frame whose type it does not know; the rest of the message is the type.
  static let unknownTypePrefix = "Unknown message type: "

  /// ``refusals`` compiled, built once.
  static let patterns: [(type: String, pattern: MessagePattern)] = refusals.keys.sorted().flatMap { type in
    refusals[type]!.map { (type, MessagePattern($0)) }
  }

  /// The index in `pending` of the request `error` refuses, or `nil` when it cannot be attributed.
  static func request(refusedBy error: ErrorMessage, among pending: [PendingRequest]) -> Int? {
    guard error.code == nil else { return nil }
    let message = error.message
    let refused: String
    if message.hasPrefix(unknownTypePrefix) {
      refused = String(message.dropFirst(unknownTypePrefix.count))
    } else {
      let bytes = Array(message.utf8)
      guard let match = patterns.first(where: { $0.pattern.matches(bytes) }) else { return nil }
      refused = match.type
    }
    let session = error.sessionId
    return pending.firstIndex { request in
      !request.following && request.type.hasSameScalars(as: refused)
        && (session == nil || ClientEngine.sameId(request.sessionId, session))
    }
  }
}

/// A message template in the catalog's notation: literal text with `<name>` placeholders, each
/// standing for any text (possibly empty). Matching works on UTF-8 bytes and is linear in the message
/// length for each literal part.
struct MessagePattern: Sendable {
  /// The literal parts between placeholders, in order (the first is empty when the template starts
  /// with a placeholder, the last when it ends with one).
  let parts: [[UInt8]]

  init(_ template: String) {
    var parts: [[UInt8]] = [[]]
    var inPlaceholder = false
    for byte in template.utf8 {
      switch (byte, inPlaceholder) {
      case (UInt8(ascii: "<"), false):
        inPlaceholder = true
        parts.append([])
      case (UInt8(ascii: ">"), true): inPlaceholder = false
      case (_, false): parts[parts.count - 1].append(byte)
      default: break
      }
    }
    self.parts = parts
  }

  /// `true` when `message` is the template with some text in place of each placeholder.
  func matches(_ message: [UInt8]) -> Bool {
    guard parts.count > 1 else { return message == parts[0] }
    let first = parts[0]
    let last = parts[parts.count - 1]
    guard message.count >= first.count + last.count, message.starts(with: first),
      message[(message.count - last.count)...].elementsEqual(last)
    else { return false }
    // Middle parts, leftmost first, between the prefix and the suffix (leftmost is enough: a
    // placeholder matches any text, so an earlier match never prevents a later part from matching).
    var from = first.count
    let end = message.count - last.count
    for part in parts[1..<(parts.count - 1)] where !part.isEmpty {
      guard let found = Self.find(part, in: message, from: from, to: end) else { return false }
      from = found + part.count
    }
    return true
  }

  /// The first index ≥ `from` where `part` occurs entirely before `to`, or `nil`.
  static func find(_ part: [UInt8], in message: [UInt8], from: Int, to end: Int) -> Int? {
    guard end - from >= part.count else { return nil }
    var start = from
    while start + part.count <= end {
      if message[start..<(start + part.count)].elementsEqual(part) { return start }
      start += 1
    }
    return nil
  }
}
