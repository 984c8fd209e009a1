import VCProtoCapture
import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// The protocol version named on the command line, checked in one place for every command.
extension ParsedArguments {
  /// The version of `--protocol`, else ``defaultProtocol``; a version the catalog does
  /// not know is a usage error naming the known ones.
  func protocolVersion() throws(UsageError) -> ProtocolVersion {
    guard let text = self[ProtocolOption.name] else { return Self.defaultProtocol }
    return try Self.version(text)
  }

  /// The version `validate` and `decode` assume without `--protocol` (and, for `validate`, without a
  /// handshake in the capture): today's protocol, the one the iOS app and the backend speak.
  static let defaultProtocol = CaptureValidator.defaultProtocolVersion

  /// A version given on the command line; one the catalog does not know is a usage error naming the
  /// known ones.
  static func version(_ text: String) throws(UsageError) -> ProtocolVersion {
    guard let version = ProtocolVersion(rawValue: text) else {
      throw UsageError(
        "unknown protocol version '\(text)' (known: " + ArgumentParser.alternatives(ProtocolVersion.allStrings) + ")")
    }
    return version
  }

  /// The catalog of a version given on the command line; a version the catalog does not know is a
  /// usage error naming the known ones.
  static func catalog(_ version: String) throws(UsageError) -> ProtocolCatalog {
    ProtocolCatalog.catalog(try Self.version(version))
  }
}
