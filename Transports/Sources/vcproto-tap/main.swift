import Foundation
import VCProtoTap

exit(TapCommand.main(Array(CommandLine.arguments.dropFirst()), .standard))
