import VCProto

/// The protocol version named on the command line, checked in one place for every command.
extension ParsedArguments {
  /// The version of `--protocol`, else ``KnownVersion/validationDefault``; a version the catalog does
  /// not know is a usage error naming the known ones.
  func protocolVersion() throws(UsageError) -> String {
    try Self.catalog(self["protocol"] ?? KnownVersion.validationDefault.rawValue).version
  }

  /// The catalog of a version given on the command line; a version the catalog does not know is a
  /// usage error naming the known ones.
  static func catalog(_ version: String) throws(UsageError) -> ProtocolCatalog {
    guard let catalog = ProtocolCatalog.version(version) else {
      throw UsageError(
        "unknown protocol version '\(version)' (known: "
          + ArgumentParser.alternatives(ProtocolCatalog.all.map(\.version)) + ")")
    }
    return catalog
  }
}
