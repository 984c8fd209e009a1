/// `vcproto-dev generate-model`: regenerates the typed Swift model from the catalog.
enum GenerateModelCommand {
  static let spec = CommandSpec(
    name: "generate-model",
    abstract: "Regenerate the typed Swift model from the catalog (for maintainers).",
    program: VCProtoCommand.developerProgram,
    example: "vcproto-dev generate-model",
    exitStatus: [ExitStatus(0, "written"), ExitStatus(2, "usage error or a file that cannot be written")],
    options: [
      .option(
        "output", short: "o", value: "dir", help: "Directory to write into (default Sources/VCProtoCore/Generated).")
    ])

  static func run(_ args: ParsedArguments, io: CommandIO, tools: DeveloperTools) -> Int32 {
    let output = args["output"] ?? "Sources/VCProtoCore/Generated"
    let files = tools.modelFiles()
    for file in files {
      guard FileWriting.write(file.contents, to: io.resolve(output), path: file.path, io: io, command: "generate-model")
      else { return 2 }
    }
    io.standardOutput.line("wrote \(files.count) files to \(output)")
    return 0
  }
}
