import VCProto

/// `vcproto catalog`: the message types per protocol version and direction, with their status.
enum CatalogCommand {
  static let spec = CommandSpec(
    name: "catalog",
    abstract: "List the message types per protocol version and direction.",
    discussion: """
      Status is one of implemented, documented_not_implemented (valid, but the real backend never
      sends it), unhandled (sent, but the real backend ignores it), nonexistent (listed in a review
      only; not part of the protocol) and extension (only after its capability is negotiated).
      """,
    options: [
      .option("format", value: "text|json", allowed: ["text", "json"], help: "Output format (default text)."),
      .option("protocol", value: "version", help: "Only this protocol version."),
      .option(
        "direction", value: "direction", allowed: ["client_to_server", "server_to_client"],
        help: "Only this direction."),
    ])

  static func run(_ args: ParsedArguments, io: CommandIO) throws(UsageError) -> Int32 {
    var catalogs = ProtocolCatalog.all
    if let version = args["protocol"] {
      guard let catalog = ProtocolCatalog.version(version) else {
        throw UsageError(
          "unknown protocol version '\(version)' (known: "
            + ArgumentParser.alternatives(ProtocolCatalog.all.map(\.version)) + ")")
      }
      catalogs = [catalog]
    }
    let directions =
      args["direction"].flatMap(MessageDirection.init(rawValue:)).map { [$0] } ?? MessageDirection.allCases
    if args["format"] == "json" {
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
