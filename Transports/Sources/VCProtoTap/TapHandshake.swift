import NIOHTTP1
import VCProtoNIO

/// What the upstream upgrade request carries over from the client's.
enum TapHandshake {
  /// Headers that belong to one hop or to the WebSocket handshake itself: never copied upstream
  /// (the tap makes its own handshake; `Sec-WebSocket-Extensions` is dropped because the tap
  /// negotiates no extension, so no frame is compressed on either side).
  static let hopHeaders: Set<String> = [
    "host", "connection", "upgrade", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions",
    "sec-websocket-accept", "content-length", "transfer-encoding", "keep-alive", "te", "trailer",
    "proxy-connection", "proxy-authorization", "proxy-authenticate",
  ]

  /// The upstream request's headers: every end-to-end header of the client's request
  /// (`Sec-WebSocket-Protocol`, `Origin`, `Authorization`, `Cookie`, `User-Agent`, ...), in order.
  static func upstreamHeaders(_ request: HTTPHeaders) -> HTTPHeaders {
    var headers = HTTPHeaders()
    for (name, value) in request where !hopHeaders.contains(name.lowercased()) {
      headers.add(name: name, value: value)
    }
    return headers
  }

  /// The upstream request target: the upstream URL's path as a prefix of the client's path and
  /// query (`ws://b:8080` and `/?x=1` give `/?x=1`; `ws://b:8080/api` and `/ws?x=1` give
  /// `/api/ws?x=1`).
  static func upstreamTarget(base: String, request: String) -> String {
    var prefix = base
    if let query = prefix.firstIndex(of: "?") { prefix = String(prefix[..<query]) }
    while prefix.hasSuffix("/") { prefix.removeLast() }
    let path = request.hasPrefix("/") ? request : "/" + request
    return prefix + path
  }

  /// The 101 response's headers given the upstream's 101: its chosen subprotocol.
  static func responseHeaders(_ upstream: HTTPHeaders) -> HTTPHeaders {
    var headers = HTTPHeaders()
    for value in upstream[canonicalForm: "Sec-WebSocket-Protocol"] {
      headers.add(name: "Sec-WebSocket-Protocol", value: String(value))
    }
    return headers
  }
}
