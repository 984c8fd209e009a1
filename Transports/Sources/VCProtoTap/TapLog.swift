import VCProtoCapture

/// The tap's diagnostics on standard error, one line each, prefixed `vcproto-tap:`.
struct TapLog: Sendable {
  let sink: OutputSink

  /// A line about the whole tap.
  func note(_ text: String) {
    sink.line("vcproto-tap: \(text)")
  }

  /// A line about one connection.
  func connection(_ id: Int, _ text: String) {
    sink.line("vcproto-tap: connection \(id): \(text)")
  }
}
