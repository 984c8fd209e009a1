/// The result of parsing one subcommand's arguments.
struct ParsedArguments: Equatable {
  /// Option values by long name (the last occurrence wins).
  var values: [String: String] = [:]
  /// Flags that were given, by long name.
  var flags: Set<String> = []
  /// Positional arguments in order (`-` is a positional: standard input).
  var positionals: [String] = []

  /// Whether `--help` / `-h` was given (everything else is then ignored).
  var wantsHelp: Bool { flags.contains("help") }

  /// The value of an option, if given.
  subscript(_ name: String) -> String? { values[name] }

  /// Whether a flag was given.
  func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// A small, conventional command-line parser: long options with `--name value` or `--name=value`,
/// one-letter aliases (`-o value`), flags, `--` to end options, `-` as a positional. Errors name the
/// offending argument; the caller prints them with a usage hint and exits 2.
enum ArgumentParser {
  /// Parses `arguments` (without the subcommand name) against `spec`.
  static func parse(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
    var result = ParsedArguments()
    let options = spec.options + [CommandSpec.helpOption]
    var i = 0
    var optionsEnded = false
    while i < arguments.count {
      let argument = arguments[i]
      i += 1
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        result.positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name: String
      var inlineValue: String?
      let option: OptionSpec
      if argument.hasPrefix("--") {
        let body = argument.dropFirst(2)
        if let eq = body.firstIndex(of: "=") {
          name = String(body[..<eq])
          inlineValue = String(body[body.index(after: eq)...])
        } else {
          name = String(body)
        }
        guard let found = options.first(where: { $0.name == name }) else {
          throw UsageError("unknown option '--\(name)'" + suggestion(for: name, among: options))
        }
        option = found
      } else {
        // `-o`, `-ovalue`: one-letter aliases (no bundling of several flags).
        let body = argument.dropFirst()
        let letter = body.first!
        guard let found = options.first(where: { $0.short == letter }) else {
          throw UsageError("unknown option '\(argument)'")
        }
        option = found
        name = found.name
        if body.count > 1 {
          guard !found.isFlag else { throw UsageError("unknown option '\(argument)'") }
          inlineValue = String(body.dropFirst())
        }
      }
      if option.isFlag {
        if inlineValue != nil { throw UsageError("option '--\(name)' does not take a value") }
        result.flags.insert(name)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else {
        guard i < arguments.count, arguments[i] == "-" || !arguments[i].hasPrefix("-") else {
          throw UsageError("option '--\(name)' needs a value <\(option.valueName ?? "value")>")
        }
        value = arguments[i]
        i += 1
      }
      if let allowed = option.allowedValues, !allowed.contains(value) {
        throw UsageError(
          "invalid value '\(value)' for '--\(name)' (expected " + alternatives(allowed) + ")")
      }
      result.values[name] = value
    }
    if result.wantsHelp { return result }
    let required = spec.positionals.filter { !$0.optional }.count
    if result.positionals.count < required {
      let missing = spec.positionals[result.positionals.count]
      throw UsageError("missing argument <\(missing.name)>")
    }
    let unlimited = spec.positionals.last?.repeating ?? false
    if !unlimited, result.positionals.count > spec.positionals.count {
      throw UsageError("unexpected argument '\(result.positionals[spec.positionals.count])'")
    }
    return result
  }

  /// `a, b or c`.
  static func alternatives(_ values: [String]) -> String {
    guard values.count > 1 else { return values.first ?? "" }
    return values.dropLast().joined(separator: ", ") + " or " + values.last!
  }

  /// ` (did you mean '--format'?)` when one option is a close match.
  private static func suggestion(for name: String, among options: [OptionSpec]) -> String {
    let close = options.filter { !$0.hidden && editDistance($0.name, name) <= 2 }
    guard let best = close.min(by: { editDistance($0.name, name) < editDistance($1.name, name) }) else {
      return ""
    }
    return " (did you mean '--\(best.name)'?)"
  }

  /// Levenshtein distance between two short strings.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
