import Foundation
import VCProtoCapture
import VCProtoNIO

/// A tap started in this process for `vcproto-tap-bench`: findings to `/dev/null`, the capture to
/// `capture` when given. Not for other uses.
public enum TapBenchmarkSupport {
  /// Starts a tap on 127.0.0.1 (any free port) relaying to `upstream`; returns its port and a
  /// function that stops it.
  public static func start(upstream: WebSocketURL, capture: String?) async throws -> (
    port: Int, stop: @Sendable () async -> Void
  ) {
    var arguments = ["--listen", "127.0.0.1:0", "--upstream", upstream.description]
    if let capture { arguments += ["--capture", capture] }
    let options = try TapOptions.parse(arguments)
    let null = OutputSink(handle: FileHandle(forWritingAtPath: "/dev/null")!)
    let observer = try LiveTapObserver(options: options, io: TapIO(standardOutput: null, standardError: null))
    let tap = try await Tap.start(
      host: "127.0.0.1", port: 0, upstream: upstream, limits: .default, log: TapLog(sink: null), observer: observer)
    return (
      tap.port,
      {
        await tap.stop()
        observer.finish()
      }
    )
  }
}
