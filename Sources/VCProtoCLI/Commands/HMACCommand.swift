import Foundation
import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// `vcproto-dev hmac`: reads lines `<hex key> <hex message>` on standard input and prints the
/// lowercase hex HMAC-SHA256 of each, so other languages can cross-check the implementation.
enum HMACCommand {
  static let spec = CommandSpec(
    name: "hmac",
    abstract: "Print HMAC-SHA256 of '<hex key> <hex message>' lines from standard input (for cross-checks).",
    program: VCProtoCommand.developerProgram,
    example: "echo '6b6579 6d657373616765' | vcproto-dev hmac",
    exitStatus: [
      ExitStatus(0, "every line answered"), ExitStatus(2, "usage error or a line that is not two hex strings"),
    ],
    options: [])

  static func run(_ args: ParsedArguments, io: CommandIO) -> Int32 {
    let input = io.openStandardInput().readDataToEndOfFile()
    var status: Int32 = 0
    for (number, line) in String(decoding: input, as: UTF8.self).split(separator: "\n").enumerated() {
      let parts = line.split(separator: " ", omittingEmptySubsequences: false)
      guard parts.count == 2, let key = Hex.decode(String(parts[0])), let message = Hex.decode(String(parts[1])) else {
        io.standardError.line("vcproto-dev hmac: line \(number + 1) is not '<hex key> <hex message>'")
        status = 2
        continue
      }
      io.standardOutput.line(Hex.encode(HMACSHA256.authenticationCode(key: key, message: message)))
    }
    return status
  }
}
