import Foundation
import VCProtoCLI
import VCProtoTap

exit(TapCommand.main(Array(CommandLine.arguments.dropFirst()), .standard))
