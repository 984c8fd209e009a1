import Foundation
import Testing
import VCProtoCodegen

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The committed typed model is exactly what the catalog generates, and it models every catalog type.
@Suite struct ModelFreshnessTests {
  static let generatedDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/VCProtoCore/Generated")

  @Test func committedModelMatchesTheCatalog() throws {
    for file in SwiftModelGenerator().files() {
      let url = Self.generatedDirectory.appendingPathComponent(file.name)
      let committed = try String(contentsOf: url, encoding: .utf8)
      #expect(committed == file.contents, "\(file.name) is stale: run `swift run vcproto-dev generate-model`")
    }
  }

  @Test func modelCoversExactlyTheModelledCatalogTypes() {
    // Every type modelled in some version, once, in declaration order.
    func declared(_ direction: MessageDirection) -> [String] {
      var seen: Set<String> = []
      return ProtocolCatalog.declaration.messages.filter {
        $0.isModelled && $0.direction == direction && seen.insert($0.type).inserted
      }.map(\.type)
    }
    #expect(ClientMessage.modelledTypes == declared(.clientToServer))
    #expect(ServerMessage.modelledTypes == declared(.serverToClient))
    #expect(
      ServerMessage.modelledTypes.contains("canvas_update") && ClientMessage.modelledTypes.contains("set_directory"))
    let catalog = ProtocolCatalog.v0_2_0
    // The real 0.2.0 inventory: 23 client types and 40 server types (one of which never existed).
    #expect(catalog.messages.filter { $0.status != .extension }.count == 63)
    #expect(catalog.message("recipe_step_complete")?.isModelled == false)
  }
}
