import Foundation
import VCProtoCore
import VCProtoJSON

/// Writes every message a host sends or receives as one JSON Lines record, the format
/// `vcproto validate` reads and `vcproto-tap` writes:
/// `{"connection":N,"direction":"client_to_server","time":1764331200.123,"data":"<text>"}`, a binary
/// message with `"opcode":2` and its bytes in base64. `connection` numbers the transports: each
/// reconnect of a ``ClientHost`` and each connection a ``ServerHost`` accepts is a new one, so
/// `validate` checks each conversation on its own.
///
/// The capture holds what crossed the wire, secrets included (an auth v1 `connect` carries the API
/// key): keep the file as private as the key. Each record is written when the message crosses.
/// A write that fails stops the capture (``failure`` says why); the host goes on.
public final class JSONLinesCapture: Sendable {
  private struct State {
    var failure: String?
    var connections = 0
  }

  private let write: @Sendable ([UInt8]) throws -> Void
  private let state = Locked(State())

  /// Creates (or truncates) the file at `url` and writes the records to it.
  public convenience init(url: URL) throws {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
    }
    let handle = try FileHandle(forWritingTo: url)
    self.init { bytes in try handle.write(contentsOf: bytes) }
  }

  /// Hands each record (its bytes and a newline) to `write`.
  public init(write: @escaping @Sendable ([UInt8]) throws -> Void) {
    self.write = write
  }

  /// Why the capture stopped, or `nil` while it works.
  public var failure: String? { state.withLock { $0.failure } }

  /// A number for a new connection (0, 1, ...).
  func newConnection() -> Int {
    state.withLock { state in
      defer { state.connections += 1 }
      return state.connections
    }
  }

  /// Writes the record of `message`, which crossed `connection` in `direction`.
  func record(_ message: WebSocketMessage, connection: Int, direction: MessageDirection) {
    var line = Self.line(
      message, connection: connection, direction: direction, time: Date().timeIntervalSince1970)
    line.append(0x0A)
    state.withLock { state in
      guard state.failure == nil else { return }
      do {
        try write(line)
      } catch {
        state.failure = "\(error)"
      }
    }
  }

  /// One record, without the newline: the one writer of capture records (``JSONLinesCapture`` and
  /// `vcproto-tap`, through the CLI's `LiveValidation.record`). A text message that is not UTF-8 is
  /// written with U+FFFD in place of each invalid sequence (the record is JSON text).
  package static func line(_ message: WebSocketMessage, connection: Int, direction: MessageDirection, time: Double)
    -> [UInt8]
  {
    var members = [
      JSONObject.Member(key: "connection", value: .number(JSONNumber(connection))),
      JSONObject.Member(key: "direction", value: .string(direction.rawValue)),
      JSONObject.Member(key: "time", value: .number(JSONNumber((time * 1_000).rounded() / 1_000))),
    ]
    switch message {
    case .text(let bytes):
      members.append(JSONObject.Member(key: "data", value: .string(String(decoding: bytes, as: UTF8.self))))
    case .binary(let bytes):
      members.append(JSONObject.Member(key: "opcode", value: .number(JSONNumber(2))))
      members.append(JSONObject.Member(key: "data", value: .string(Base64.encode(bytes))))
    }
    return Array(JSONValue.object(JSONObject(members)).jsonText.utf8)
  }
}
