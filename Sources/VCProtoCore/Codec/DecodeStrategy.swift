import VCProtoJSON

/// How a ``MessageDecoder`` reaches its verdict: an explicit choice, made from the options and what the
/// logger records, never from which logger object was passed.
enum DecodeStrategy: Sendable, Hashable {
  /// The direct path (bytes straight into the structs), then the tree path; the validator runs only
  /// to explain a frame that fails both. A frame that decodes this way has no error, but its warnings
  /// (undeclared members, an unknown type) are not reported.
  case fast
  /// The validator on every frame, then the model built from its report: needed when warnings matter
  /// to the outcome (strict mode makes them errors) or to the log (a logger recording `info` or lower
  /// wants to see each unknown type and undeclared member).
  case validated

  /// The strategy for decoding with `options`, logging to `logger`.
  static func choose(options: ValidationOptions, logger: ProtocolLogger) -> DecodeStrategy {
    options.strict || logger.records(ProtocolLogger.warningFindingLevel) ? .validated : .fast
  }
}
