import Foundation
import VCProtoCapture

/// A one-line progress display on standard error for large inputs, redrawn at most ten times a
/// second, and erased when done. Silent unless standard error is a terminal.
final class ProgressIndicator {
  private let sink: OutputSink
  private let enabled: Bool
  private let name: String
  private let total: Int?
  private var lastDraw = Date.distantPast
  private var drawn = false
  private var calls = 0

  /// Inputs at least this large (or of unknown size) get a progress line.
  static let threshold = 8 * 1024 * 1024

  init(sink: OutputSink, terminal: Bool, name: String, total: Int?) {
    self.sink = sink
    self.name = TerminalText.escaped(name)
    self.total = total
    self.enabled = terminal && (total ?? Int.max) >= Self.threshold
  }

  func update(bytesRead: Int, frames: Int) {
    guard enabled else { return }
    calls += 1
    guard calls % 64 == 0 else { return }
    let now = Date()
    guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
    lastDraw = now
    var line = "\r\u{1B}[Kvcproto: \(name): \(megabytes(bytesRead))"
    if let total, total > 0 { line += " / \(megabytes(total)) (\(bytesRead * 100 / total)%)" }
    line += ", \(frames) frames"
    sink.write(line)
    drawn = true
  }

  func finish() {
    if drawn { sink.write("\r\u{1B}[K") }
  }

  private func megabytes(_ n: Int) -> String {
    String(format: "%.1f MB", Double(n) / 1_048_576)
  }
}
