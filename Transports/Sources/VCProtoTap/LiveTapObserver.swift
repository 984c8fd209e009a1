import VCProto
import VCProtoCLI
import VCProtoNIO

/// Checks and captures what the tap forwards (filled in with the live checking).
final class LiveTapObserver: TapObserver {
  init(options: TapOptions, io: CommandIO) throws {}

  func observe(_ message: WebSocketMessage, direction: MessageDirection, connection: Int) {}

  func ended(connection: Int) {}

  /// Flushes the capture.
  func finish() {}
}
