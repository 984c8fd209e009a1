import Foundation
import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// `vcproto-dev schema`: writes the JSON Schema files derived from the catalog.
enum SchemaCommand {
  static let spec = CommandSpec(
    name: "schema",
    abstract: "Write the JSON Schema files derived from the protocol catalog.",
    program: VCProtoCommand.developerProgram,
    example: "vcproto-dev schema --output Schema",
    exitStatus: [ExitStatus(0, "written"), ExitStatus(2, "usage error or a file that cannot be written")],
    options: [
      .option("output", short: "o", value: "dir", help: "Directory to write into (default Schema)."),
      ProtocolOption.spec(help: "Protocol version (default: every version)."),
    ])

  static func run(_ args: ParsedArguments, io: CommandIO, tools: DeveloperTools) throws(UsageError) -> Int32 {
    var catalogs = ProtocolCatalog.all
    if let version = args[ProtocolOption.name] { catalogs = [try ParsedArguments.catalog(version)] }
    let directory = io.resolve(args["output"] ?? "Schema")
    var count = 0
    for catalog in catalogs {
      for file in tools.schemaFiles(catalog) {
        guard FileWriting.write(file.contents, to: directory, path: file.path, io: io, command: "schema") else {
          return 2
        }
        count += 1
      }
    }
    io.standardOutput.line("wrote \(count) file\(count == 1 ? "" : "s") to \(args["output"] ?? "Schema")")
    return 0
  }
}

/// Writes generated files, creating directories as needed.
enum FileWriting {
  static func write(_ contents: String, to directory: String, path: String, io: CommandIO, command: String) -> Bool {
    let url = URL(fileURLWithPath: directory).appendingPathComponent(path)
    do {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try contents.write(to: url, atomically: true, encoding: .utf8)
      return true
    } catch {
      io.standardError.line(
        "\(VCProtoCommand.developerProgram) \(command): cannot write '\(url.path)': \(error.localizedDescription)")
      return false
    }
  }
}
