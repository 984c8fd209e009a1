extension Capability {
  /// `capabilities` without the compression capabilities of the forms `envelopes` does not open
  /// (all of them when it is `nil`): what an engine may negotiate.
  package static func negotiable(_ capabilities: [String], envelopes: (any EnvelopeOpening)?) -> [String] {
    let opened = envelopes?.openedForms ?? []
    return capabilities.filter { name in
      !EnvelopeForm.allCases.contains { $0.capability == name && !opened.contains($0) }
    }
  }
}
