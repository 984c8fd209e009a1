import VCProtoCore
import VCProtoJSON

extension AuthClient: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// `AuthClient(apiKey: «redacted», allowAuthV1: …)`: the key is never shown.
  public var description: String {
    "AuthClient(apiKey: \(Redaction.mask), allowAuthV1: \(allowAuthV1))"
  }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// For `dump` and debuggers: the key masked. Only the members listed here are shown, so a member
  /// added later stays hidden until it is listed.
  public var customMirror: Mirror {
    Mirror(self, children: ["apiKey": Redaction.mask, "allowAuthV1": allowAuthV1], displayStyle: .struct)
  }
}
