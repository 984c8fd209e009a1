import Foundation
import Testing

@testable import VCProtoCLI

/// The maintainers' commands are `vcproto-dev`'s, not the shipped `vcproto`'s, which therefore does
/// not link the code generator (VCProtoCodegen).
@Suite struct DeveloperCommandTests {
  static let developerCommands = ["generate-model", "schema", "generate-spec", "hmac"]

  @Test func theShippedProgramHasNoMaintainerCommand() {
    #expect(VCProtoCommand.commands.allSatisfy { !Self.developerCommands.contains($0.name) })
    for name in Self.developerCommands {
      let r = runCommand([name])
      #expect(r.status == 2, "\(name)")
      #expect(r.err.hasPrefix("vcproto: unknown subcommand '\(name)'"), "\(name): \(r.err)")
    }
  }

  @Test func theDeveloperProgramHasThemWithShortHelp() {
    let names = VCProtoCommand.developerTable(standInTools).map(\.spec.name)
    #expect(names == Self.developerCommands)
    let top = runDeveloperCommand(["--help"])
    #expect(top.status == 0)
    #expect(top.out.hasPrefix("OVERVIEW: vcproto-dev "))
    for spec in VCProtoCommand.developerTable(standInTools).map(\.spec) {
      #expect(top.out.contains("\n  \(spec.name) "), "\(spec.name)")
      let help = runDeveloperCommand([spec.name, "--help"])
      #expect(help.status == 0)
      #expect(help.out.contains("USAGE: vcproto-dev \(spec.name)"), "\(help.out)")
      #expect(help.out.hasSuffix("Full reference: docs/CLI.md#vcproto-dev\n"), "\(spec.name)")
      #expect(help.out.split(separator: "\n").count <= 25, "\(spec.name)")
      #expect(spec.example.contains("vcproto-dev \(spec.name)"), "\(spec.name)")
    }
    #expect(runDeveloperCommand(["validate"]).status == 2)
    #expect(runDeveloperCommand(["--version"]).out == "vcproto-dev \(VCProtoCommand.version)\n")
  }

  @Test func commandsRunTheGeneratorsTheyAreGiven() throws {
    let r = runDeveloperCommand(["hmac"], stdin: "6b6579 6d657373616765\n")
    // HMAC-SHA256 of key "key" and message "message".
    #expect(r.out == "6e9ef29b75fffc5b7abae527d58fdadb2fe42e7219011976917343065f58ed4a\n")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vcproto-dev-\(UUID().uuidString)")
    #expect(runDeveloperCommand(["schema", "--protocol", "0.5.0", "-o", dir.path]).status == 0)
    #expect(try String(contentsOf: dir.appendingPathComponent("0.5.0.json"), encoding: .utf8) == "{}\n")
    #expect(runDeveloperCommand(["generate-model", "-o", dir.path]).status == 0)
    #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("model.swift").path))
    let standards = dir.appendingPathComponent("S.md")
    try "spec\n".write(to: standards, atomically: true, encoding: .utf8)
    let reference = dir.appendingPathComponent("M.md")
    let spec = runDeveloperCommand([
      "generate-spec", "--spec", standards.path, "--reference", reference.path, "--vectors", dir.path,
    ])
    #expect(spec.status == 0, "\(spec.err)")
    #expect(try String(contentsOf: standards, encoding: .utf8) == "spec\n<!-- rendered -->\n")
    #expect(try String(contentsOf: reference, encoding: .utf8) == "0 examples\n")
  }

  /// The built `vcproto` links no code generator; `vcproto-dev` (built beside it) does.
  @Test func theShippedBinaryDoesNotLinkTheGenerator() throws {
    let binary = try #require(EndToEndTests.binary, "the vcproto executable was not found; set VCPROTO_BINARY")
    let shipped = try Data(contentsOf: binary)
    #expect(shipped.range(of: Data("VCProtoCodegen".utf8)) == nil)
    let developer = binary.deletingLastPathComponent().appendingPathComponent("vcproto-dev")
    let tools = try Data(contentsOf: developer)
    #expect(tools.range(of: Data("VCProtoCodegen".utf8)) != nil)
  }
}
