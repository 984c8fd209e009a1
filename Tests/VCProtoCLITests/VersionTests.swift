import Foundation
import Testing

@testable import VCProtoCLI

/// `vcproto --version` prints the package's version, declared once (`VCProtoCommand.version`).
@Suite struct VersionTests {
  @Test(arguments: ["--version", "-V"])
  func versionPrintsThePackageVersion(_ flag: String) {
    let r = runCommand([flag])
    #expect(r.status == 0)
    #expect(r.out == "vcproto \(VCProtoCommand.version)\n")
    #expect(r.err.isEmpty)
  }

  @Test func versionIsAReleaseNumber() {
    let parts = VCProtoCommand.version.split(separator: ".", omittingEmptySubsequences: false)
    #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) })
  }

  @Test func helpListsVersion() {
    let r = runCommand(["--help"])
    #expect(r.out.contains("-V, --version"))
  }

  /// The documents that tell an app to depend on vcproto name the declared version.
  @Test(arguments: ["README.md", "Sources/VCProto/VCProto.docc/GettingStarted.md"])
  func documentsNameTheDeclaredVersion(_ path: String) throws {
    let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    let dependency = try #require(text.split(separator: "\n").first { $0.contains(".package(url:") })
    #expect(dependency.contains(#"from: "\#(VCProtoCommand.version)")"#), "\(path): \(dependency)")
  }
}
