import VCProtoCore
import VCProtoJSON

extension NegotiationFailure: CustomStringConvertible {
  /// `unsupported_protocol_version: required 0.4.0, received "0.3.0"`. ``received`` is the client's
  /// own text (a version with any suffix after `-` or `+`), so it is quoted like every validator
  /// quote: key-shaped text masked, at most 60 Unicode scalars, then `…`. ``errorMessage`` echoes it
  /// whole, as the real server does.
  public var description: String {
    "\(Self.code): required \(required), received \"\(Redaction.truncated(received))\""
  }
}
