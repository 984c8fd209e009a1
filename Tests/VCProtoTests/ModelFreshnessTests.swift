import Foundation
import Testing
import VCProtoCodegen

@testable import VCProto

/// The committed typed model is exactly what the catalog generates, and it models every catalog type.
@Suite struct ModelFreshnessTests {
  static let generatedDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/VCProto/Model/Generated")

  @Test func committedModelMatchesTheCatalog() throws {
    for file in SwiftModelGenerator().files() {
      let url = Self.generatedDirectory.appendingPathComponent(file.name)
      let committed = try String(contentsOf: url, encoding: .utf8)
      #expect(committed == file.contents, "\(file.name) is stale: run `swift run vcproto generate-model`")
    }
  }

  @Test func modelCoversExactlyTheModelledCatalogTypes() {
    let catalog = ProtocolCatalog.modelled
    #expect(ClientMessage.modelledTypes == catalog.messages(.clientToServer).filter(\.isModelled).map(\.type))
    #expect(ServerMessage.modelledTypes == catalog.messages(.serverToClient).filter(\.isModelled).map(\.type))
    // The real 0.2.0 inventory: 23 client types and 40 server types (one of which never existed).
    #expect(catalog.messages.filter { $0.status != .extension }.count == 63)
    #expect(catalog.message("recipe_step_complete")?.isModelled == false)
  }
}
