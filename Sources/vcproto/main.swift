import Foundation
import VCProtoCLI

exit(VCProtoCommand.main(Array(CommandLine.arguments.dropFirst()), .standard))
