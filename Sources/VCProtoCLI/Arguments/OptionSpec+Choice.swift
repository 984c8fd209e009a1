/// Options whose value is one case of an enumeration, declared from the enumeration itself: the
/// accepted words, the placeholder and the parsed value cannot drift apart.
extension OptionSpec {
  /// An option taking one case of `T` by its raw value: `--format <text|json>`.
  static func choice<T: CaseIterable & RawRepresentable>(_ name: String, of _: T.Type, help: String) -> OptionSpec
  where T.RawValue == String {
    let values = T.allCases.map(\.rawValue)
    return .option(name, value: values.joined(separator: "|"), allowed: values, help: help)
  }
}

extension ParsedArguments {
  /// The case of `T` the option `name` names, `nil` when it is not given (the parser accepted only
  /// `T`'s raw values, ``OptionSpec/choice(_:of:help:)``).
  func choice<T: RawRepresentable>(_ name: String, as _: T.Type = T.self) -> T? where T.RawValue == String {
    self[name].flatMap(T.init(rawValue:))
  }
}
