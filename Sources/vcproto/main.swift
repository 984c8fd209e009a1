import Foundation
import VCProtoCodegen

// Bootstrap: writes the generated model.
for f in SwiftModelGenerator().files() {
  try f.contents.write(toFile: "Sources/VCProto/Model/Generated/" + f.name, atomically: true, encoding: .utf8)
}
