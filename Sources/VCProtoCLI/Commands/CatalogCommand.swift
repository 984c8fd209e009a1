import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// `vcproto catalog`: the message types per protocol version and direction, with their status; with
/// `--diff A B`, what changed from version A to version B.
enum CatalogCommand {
  static let spec = CommandSpec(
    name: "catalog",
    abstract: "List the message types per protocol version and direction, or diff two versions.",
    example: "vcproto catalog --diff 0.4.0 0.5.0",
    exitStatus: [ExitStatus(0, "listed"), .usage],
    options: [
      .flag("diff", help: "What changed between the two <version>s."),
      FormatOption.spec,
      ProtocolOption.spec(help: "Only this protocol version."),
      DirectionOption.spec(help: "Only this direction"),
    ],
    positionals: [
      PositionalSpec(
        name: "version", help: "With --diff: the two versions, older first.", optional: true, repeating: true)
    ])

  static func run(_ args: ParsedArguments, io: CommandIO) throws(UsageError) -> Int32 {
    if args.has("diff") {
      guard args.positionals.count == 2 else { throw UsageError("--diff needs two versions, e.g. --diff 0.4.0 0.5.0") }
      let catalogs = try args.positionals.map { (version) throws(UsageError) -> ProtocolCatalog in
        try ParsedArguments.catalog(version)
      }
      let diff = CatalogDiff(from: catalogs[0], to: catalogs[1])
      if FormatOption.value(args) == .json {
        io.standardOutput.line(PrettyPrinter.text(.object(CatalogDiffOutput.json(diff))))
      } else {
        for line in CatalogDiffOutput.text(diff) { io.standardOutput.line(line) }
      }
      return 0
    }
    guard args.positionals.isEmpty else { throw UsageError("versions are arguments only with --diff") }
    var catalogs = ProtocolCatalog.all
    if let version = args[ProtocolOption.name] { catalogs = [try ParsedArguments.catalog(version)] }
    let directions =
      DirectionOption.value(args).map { [$0] } ?? MessageDirection.allCases
    if FormatOption.value(args) == .json {
      let versions: [JSONValue] = catalogs.map { catalog in
        var members = [JSONObject.Member(key: "version", value: .string(catalog.version))]
        for direction in directions {
          let types: [JSONValue] = catalog.messages(direction).map { spec in
            var m: [JSONObject.Member] = [
              .init(key: "type", value: .string(spec.type)), .init(key: "status", value: .string(spec.status.rawValue)),
            ]
            if let capability = spec.capability { m.append(.init(key: "capability", value: .string(capability))) }
            if direction == .clientToServer {
              m.append(.init(key: "requires_authentication", value: .bool(spec.requiresAuthentication)))
            }
            return .object(JSONObject(m))
          }
          members.append(.init(key: direction.rawValue, value: .array(types)))
        }
        return .object(JSONObject(members))
      }
      io.standardOutput.line(PrettyPrinter.text(["versions": .array(versions)]))
      return 0
    }
    for catalog in catalogs {
      io.standardOutput.line("protocol \(catalog.version)")
      for direction in directions {
        let specs = catalog.messages(direction)
        io.standardOutput.line("  \(direction.rawValue) (\(specs.count) types)")
        for spec in specs {
          var row = "    " + spec.type.padding(toLength: 26, withPad: " ", startingAt: 0) + " " + spec.status.rawValue
          if let capability = spec.capability { row += " (capability \(capability))" }
          if direction == .clientToServer, !spec.requiresAuthentication { row += ", allowed before authentication" }
          io.standardOutput.line(row)
        }
      }
    }
    return 0
  }
}
