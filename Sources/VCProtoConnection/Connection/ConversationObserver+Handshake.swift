import VCProtoCore
import VCProtoJSON

extension ConversationObserver {
  /// A server `hello`: a new connection, whose offer the hello describes.
  mutating func beginConnection(hello: JSONObject) {
    var fresh = ConversationObserver(
      fallbackVersion: version.fallback, explicitVersion: version.explicit, timing: timing)
    fresh.version = version  // it resets itself on the hello
    fresh.catalog = catalog
    fresh.isActive = true
    fresh.clientState = .awaitingHello
    let listed = Self.strings(hello["protocol_versions"], known: nil)
    let authVersions = hello["auth_versions"]?.arrayValue?.compactMap(\.intValue)
    fresh.offer = ServerOffer(
      protocolVersions: listed ?? [hello["version"]?.stringValue].compactMap { $0 },
      authVersions: authVersions ?? [hello["auth_version"]?.intValue ?? 1],
      capabilities: Self.strings(hello["capabilities"]) ?? [])
    self = fresh
  }

  /// A client `connect`: the server handles what follows after it; the capabilities are what
  /// ``Negotiator`` grants for the hello's offer and this announcement, until `connected` says.
  mutating func connect(_ message: JSONObject, now: Int64) {
    clientState = .awaitingConnected
    // A list longer than the handshake-list cap is refused by the server engine's negotiator.
    announcementTooLong = ["protocol_versions", "capabilities"].contains {
      (message[$0]?.arrayValue?.count ?? 0) > ValidationOptions.defaultMaxHandshakeListItems
    }
    announcement = ClientAnnouncement(
      protocolVersion: message["protocol_version"]?.stringValue,
      protocolVersions: Self.strings(message["protocol_versions"], known: nil),
      capabilities: Self.strings(message["capabilities"]),
      // The auth the connect performs, whatever its `auth_version` says (STANDARDS.md#negotiation).
      authVersion: message["auth_response"]?.stringValue != nil ? 2 : 1)
    if !confirmed { negotiatedCapabilities = Set(negotiation?.capabilities ?? []) }
    startFollowing(now: now)
  }

  /// What the server engine would negotiate for this connection's hello and connect (`nil` when
  /// either is missing or the client is refused).
  var negotiation: NegotiationOutcome? {
    guard let offer, let announcement, !announcementTooLong else { return nil }
    do {
      guard case .success(let outcome) = try Negotiator.negotiate(server: offer, client: announcement) else {
        return nil
      }
      return outcome
    } catch {
      // The lists were cut to the cap when read, so this is not reached; a server refuses such an
      // announcement (auth_error), which negotiates nothing either.
      return nil
    }
  }

  /// `connected`: its capabilities are in force. Granting one negotiation could not give (not
  /// offered by the hello, or not asked for by the connect) is the client engine's protocol
  /// violation.
  mutating func connected(_ message: JSONObject, into findings: inout [Finding]) {
    guard let granted = Self.strings(message["capabilities"]) else { return }
    negotiatedCapabilities = Set(granted)
    confirmed = true
    guard offer != nil, announcement != nil else { return }
    let possible = Set(negotiation?.capabilities ?? [])
    for capability in granted where !possible.contains(capability) {
      findings.append(
        Finding(
          .error, .negotiationMismatch, pointer: "/capabilities", messageType: "connected",
          message: "connected grants \(capability), which the hello did not offer or the connect did not ask for"))
    }
  }

  /// The server's first answers to `connect`, read as ``ClientEngine`` reads them: `auth_error`
  /// and the too-old refusal end the attempt; `pong`, `hello` and any other `error` are not a
  /// verdict; `connected` or (from a server that sends none) any other frame means success.
  mutating func verdict(_ frame: Frame, _ type: String) {
    switch type {
    case "auth_error":
      refused(.reauthRequired)
    case "error" where frame.message["code"]?.stringValue == NegotiationFailure.code:
      refused(.upgradeRequired)
    case "pong", "hello", "error":
      return
    default:
      clientState = .ready
      lastServerFrameAt = frame.time
    }
  }

  private mutating func refused(_ state: ClientState) {
    clientState = state
    stopFollowing()
  }

  /// Most entries kept of a handshake list not filtered by name, and their longest length: the
  /// handshake-list cap (STANDARDS.md#limits).
  static let maxListItems = ValidationOptions.defaultMaxHandshakeListItems

  /// The names of a list of strings, or `nil` when the value is not an array. With `known` (the
  /// default: ``knownCapabilities``) only those names are kept, so a long list costs no memory.
  static func strings(_ value: JSONValue?, known: Set<String>? = ConversationObserver.knownCapabilities) -> [String]? {
    guard let items = value?.arrayValue else { return nil }
    var names: [String] = []
    for item in items {
      guard let name = item.stringValue else { continue }
      if let known {
        if known.contains(name) { names.append(name) }
      } else if names.count < Self.maxListItems, name.utf8.count <= Self.maxListItems {
        names.append(name)
      }
    }
    return names
  }
}
