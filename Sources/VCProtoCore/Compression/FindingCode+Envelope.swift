extension FindingCode {
  /// The finding code of an envelope error: its stable ``EnvelopeError/code``
  /// (`envelope_bad_magic` ... `envelope_malformed`).
  public init(_ error: EnvelopeError) {
    self.init(rawValue: error.code)
  }

  /// Every envelope finding code, in ``EnvelopeError`` order.
  public static let envelopeCodes: [FindingCode] = EnvelopeError.allCases.map(FindingCode.init)
}
