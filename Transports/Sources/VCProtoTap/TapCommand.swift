import Dispatch
import Foundation
import NIOCore
import NIOPosix
import VCProtoCapture
import VCProtoNIO

/// `vcproto-tap`: parses the command line, starts the tap and runs until SIGINT or SIGTERM.
public enum TapCommand {
  /// Runs `vcproto-tap` with `arguments` (without the program name); returns the exit status: 0
  /// after SIGINT or SIGTERM (or `--help`), 1 when it cannot listen or write the capture, 2 for a
  /// usage error.
  public static func main(_ arguments: [String], _ io: TapIO) -> Int32 {
    let options: TapOptions
    do {
      options = try TapOptions.parse(arguments)
    } catch {
      io.standardError.line("vcproto-tap: \(error.message)")
      io.standardError.line("usage: \(TapOptions.usage)  (see 'vcproto-tap --help')")
      return 2
    }
    if options.wantsHelp {
      io.standardOutput.write(TapOptions.help)
      return 0
    }
    let log = TapLog(sink: io.standardError)
    let live: LiveTapObserver
    do {
      live = try LiveTapObserver(options: options, io: io)
    } catch {
      log.note("cannot write the capture '\(options.capture ?? "")': \(error)")
      return 1
    }
    var limits = WebSocketLimits.default
    limits.maxMessageBytes = options.maxMessageBytes
    let upstream = options.upstream!
    let started = DispatchSemaphore(value: 0)
    let result = LockedBox<Result<Int, Error>?>(nil)
    Task {
      do {
        let tap = try await Tap.start(
          host: options.listenHost, port: options.listenPort, upstream: upstream, limits: limits, log: log,
          observer: live, maxConnections: options.maxConnections)
        result.withLock { $0 = .success(tap.port) }
      } catch {
        result.withLock { $0 = .failure(error) }
      }
      started.signal()
    }
    started.wait()
    switch result.withLock({ $0 }) {
    case .success(let port)?:
      log.note("listening on \(options.listenHost):\(port), relaying to \(upstream)")
    case .failure(let error)?:
      log.note("cannot listen on \(options.listenHost):\(options.listenPort): \(error)")
      return 1
    case nil:
      return 1
    }
    // SIGINT and SIGTERM: flush the capture, exit 0.
    let stop = DispatchSemaphore(value: 0)
    var sources: [DispatchSourceSignal] = []
    for sig in [SIGINT, SIGTERM] {
      signal(sig, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
      source.setEventHandler { stop.signal() }
      source.resume()
      sources.append(source)
    }
    stop.wait()
    live.finish()
    log.note("stopped")
    _ = sources
    return 0
  }
}
