import VCProtoNIO

/// `vcproto-tap`'s command line, parsed by hand in the style of `vcproto`'s (long options,
/// `--name value` or `--name=value`, an error names the argument; usage errors exit 2).
struct TapOptions: Sendable, Equatable {
  var listenHost = ""
  var listenPort = 0
  var upstream: WebSocketURL?
  var capture: String?
  var json = false
  var strict = false
  var maxMessageBytes = WebSocketLimits.default.maxMessageBytes
  var maxConnections = TapOptions.defaultMaxConnections

  /// `--max-connections`'s default.
  static let defaultMaxConnections = 1_024
  var wantsHelp = false

  /// A command line `vcproto-tap` cannot run; printed with the usage line, exit 2.
  struct UsageError: Error, Equatable {
    var message: String
  }

  static let usage =
    "vcproto-tap --listen HOST:PORT --upstream ws://HOST:PORT[/path] [--capture FILE] [--format text|json] [--strict]"

  static let help = """
    OVERVIEW: Relay WebSocket connections to a backend unchanged and check both directions live.

    USAGE: \(usage)

      For each WebSocket connection accepted on --listen, one connection is opened to --upstream (the
      request's path and query appended to the upstream path, its Sec-WebSocket-Protocol and other
      end-to-end headers carried over) and every frame is forwarded both ways as it came: same bytes,
      same opcode, pings, pongs and close frames with their codes, in order, valid or not.
      Each message is checked as `vcproto validate` checks a capture, one conversation per connection:
      each finding is printed on standard output as it happens, in validate's format, its location
      being the capture line of the frame and the connection (`FILE:LINE (connection N)`; `tap:N`
      without --capture). --capture writes every message as the {"connection","direction","time","data"}
      JSON Lines that `vcproto validate` reads, which reports the same findings.
      Diagnostics (a backend that cannot be reached: the app gets HTTP 502; a socket closed without a
      close frame: the other gets 1011 or 1001) go to standard error. Ctrl-C (SIGINT) or SIGTERM flushes
      the capture and exits 0. Exit status 2: usage error; 1: cannot listen or write the capture.

    OPTIONS:
      --listen <host:port>    Where the app connects (port 0: any free port, printed on standard error).
      --upstream <url>        The backend, ws://host:port[/path].
      --capture <file>        Write every message as JSON Lines (created or truncated).
      --format <text|json>    Findings as text lines (default) or validate's JSON finding objects.
      --strict                Treat warnings as errors.
      --max-message-size <bytes>
                              Largest message (default 16777216, 16 MiB); a larger one closes the
                              connection with 1009.
      --max-connections <n>   Most connections open at once (default 1024); the app's next one gets HTTP
                              503 until one closes.
      -h, --help              Show this help.

    """

  /// Parses the arguments (without the program name).
  static func parse(_ arguments: [String]) throws(UsageError) -> TapOptions {
    var options = TapOptions()
    var listen: String?
    var i = 0
    while i < arguments.count {
      let argument = arguments[i]
      i += 1
      if argument == "-h" || argument == "--help" {
        options.wantsHelp = true
        return options
      }
      guard argument.hasPrefix("--") else { throw UsageError(message: "unexpected argument '\(argument)'") }
      var name = String(argument.dropFirst(2))
      var value: String?
      if let eq = name.firstIndex(of: "=") {
        value = String(name[name.index(after: eq)...])
        name = String(name[..<eq])
      }
      func take() throws(UsageError) -> String {
        if let value { return value }
        guard i < arguments.count, !arguments[i].hasPrefix("--") else {
          throw UsageError(message: "option '--\(name)' needs a value")
        }
        i += 1
        return arguments[i - 1]
      }
      switch name {
      case "listen": listen = try take()
      case "upstream":
        let text = try take()
        guard let url = WebSocketURL(text) else {
          throw UsageError(
            message:
              "invalid value '\(text)' for '--upstream' (expected ws://HOST:PORT[/path]; wss:// is not supported)")
        }
        options.upstream = url
      case "capture": options.capture = try take()
      case "format":
        let text = try take()
        guard text == "text" || text == "json" else {
          throw UsageError(message: "invalid value '\(text)' for '--format' (expected text or json)")
        }
        options.json = text == "json"
      case "strict":
        guard value == nil else { throw UsageError(message: "option '--strict' does not take a value") }
        options.strict = true
      case "max-connections":
        let text = try take()
        guard let n = Int(text), n > 0 else {
          throw UsageError(message: "invalid value '\(text)' for '--max-connections' (expected a positive number)")
        }
        options.maxConnections = n
      case "max-message-size":
        let text = try take()
        guard let n = Int(text), n > 0 else {
          throw UsageError(
            message: "invalid value '\(text)' for '--max-message-size' (expected a positive number of bytes)")
        }
        options.maxMessageBytes = n
      default:
        throw UsageError(message: "unknown option '--\(name)'")
      }
    }
    guard let listen else { throw UsageError(message: "missing option '--listen'") }
    guard let (host, port) = hostAndPort(listen) else {
      throw UsageError(message: "invalid value '\(listen)' for '--listen' (expected HOST:PORT)")
    }
    options.listenHost = host
    options.listenPort = port
    guard options.upstream != nil else { throw UsageError(message: "missing option '--upstream'") }
    return options
  }

  /// `127.0.0.1:9000`, `[::1]:9000`, `localhost:0`.
  static func hostAndPort(_ text: String) -> (String, Int)? {
    guard let colon = text.lastIndex(of: ":") else { return nil }
    var host = String(text[..<colon])
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard !host.isEmpty, let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else {
      return nil
    }
    return (host, port)
  }
}
