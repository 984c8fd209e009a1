import Foundation
import Testing

@testable import VCProtoCLI

/// The commands that read an input file or take `--protocol` do it one way (one implementation in
/// `CommandIO.input` and `ParsedArguments.protocolVersion`/`catalog`): the same reasons and the same
/// usage errors, whichever command.
@Suite struct SharedArgumentTests {
  @Test func everyCommandSaysWhyAnInputIsUnreadable() {
    let dir = temporaryFile("{\"type\":\"ping\"}", name: "frame.json").deletingLastPathComponent()
    let missing = dir.appendingPathComponent("absent.json").path
    for command in ["decode", "validate"] {
      let r = runCommand([command, missing])
      #expect(r.status == 2, "\(command)")
      #expect(r.err.contains("vcproto \(command): cannot read '\(missing)': no such file"), "\(command): \(r.err)")
      let d = runCommand([command, dir.path])
      #expect(d.err.contains("cannot read '\(dir.path)': is a directory"), "\(command): \(d.err)")
    }
  }

  @Test func everyCommandNamesTheKnownVersions() {
    let frame = temporaryFile("{\"type\":\"ping\"}", name: "ping.json").path
    for arguments in [
      ["decode", "--protocol", "9.9.9", frame], ["validate", "--protocol", "9.9.9", frame],
      ["schema", "--protocol", "9.9.9", "--output", NSTemporaryDirectory()], ["catalog", "--protocol", "9.9.9"],
    ] {
      let r = arguments[0] == "schema" ? runDeveloperCommand(arguments) : runCommand(arguments)
      #expect(r.status == 2, "\(arguments)")
      #expect(
        r.err.contains("unknown protocol version '9.9.9' (known: 0.2.0, 0.3.0, 0.4.0 or 0.5.0)"),
        "\(arguments): \(r.err)")
    }
    // Without --protocol, decode and validate check a frame against the same default version.
    #expect(runCommand(["decode", frame]).status == 0)
    #expect(runCommand(["validate", "--input", "frame", frame]).status == 0)
  }
}
