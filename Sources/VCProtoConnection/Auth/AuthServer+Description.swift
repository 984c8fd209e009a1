import VCProtoCore
import VCProtoJSON

extension AuthServer: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// `AuthServer(apiKey: «redacted», acceptedAuthVersions: [1, 2])`: the key is never shown.
  public var description: String {
    "AuthServer(apiKey: \(Redaction.mask), acceptedAuthVersions: \(acceptedAuthVersions.sorted()))"
  }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// For `dump` and debuggers: the key masked. Only the members listed here are shown, so a member
  /// added later stays hidden until it is listed.
  public var customMirror: Mirror {
    Mirror(
      self, children: ["apiKey": Redaction.mask, "acceptedAuthVersions": acceptedAuthVersions.sorted()],
      displayStyle: .struct)
  }
}
