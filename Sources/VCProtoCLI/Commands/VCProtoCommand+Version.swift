extension VCProtoCommand {
  /// The package's version, declared here and nowhere else: `vcproto --version` prints it, and a test
  /// checks that the documents' `.package(url:from:)` lines name it.
  static let version = "0.1.0"
}
