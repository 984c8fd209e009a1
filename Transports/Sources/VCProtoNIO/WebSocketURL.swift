/// A `ws://` URL split into what the connect and the upgrade request need.
public struct WebSocketURL: Sendable, Hashable, CustomStringConvertible {
  /// The host name or address (IPv6 without its brackets).
  public var host: String
  /// The TCP port (default 80).
  public var port: Int
  /// The request target: path and query, at least `/`.
  public var target: String

  /// Parses `ws://host[:port][/path][?query]`; `nil` for anything else (`wss://` included).
  public init?(_ text: String) {
    guard text.lowercased().hasPrefix("ws://") else { return nil }
    let rest = text.dropFirst(5)
    let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    var path = String(rest[authorityEnd...])
    if let hash = path.firstIndex(of: "#") { path = String(path[..<hash]) }
    if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
    guard !authority.isEmpty, !authority.contains("@") else { return nil }
    var host: Substring
    var portText: Substring?
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { return nil }
      host = authority[authority.index(after: authority.startIndex)..<close]
      let after = authority[authority.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { return nil }
        portText = after.dropFirst()
      }
    } else if let colon = authority.lastIndex(of: ":") {
      host = authority[..<colon]
      portText = authority[authority.index(after: colon)...]
    } else {
      host = authority
    }
    var port = 80
    if let portText {
      guard let n = Int(portText), (1...65_535).contains(n), portText.allSatisfy(\.isASCII) else { return nil }
      port = n
    }
    guard !host.isEmpty, path.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else { return nil }
    self.host = String(host)
    self.port = port
    self.target = path
  }

  /// The `Host` header's value: `host:port` (IPv6 in brackets).
  public var hostHeader: String {
    let name = host.contains(":") ? "[\(host)]" : host
    return port == 80 ? name : "\(name):\(port)"
  }

  /// `ws://host:port/target`.
  public var description: String { "ws://\(host.contains(":") ? "[\(host)]" : host):\(port)\(target)" }
}
