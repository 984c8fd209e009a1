// swift-tools-version:6.0
// Benchmarks for vcproto: a package of its own, so the library never depends on benchmark code.
import PackageDescription

let package = Package(
  name: "vcproto-benchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [.package(name: "vcproto", path: "..")],
  targets: [
    .executableTarget(
      name: "vcproto-bench",
      dependencies: [.product(name: "VCProto", package: "vcproto")],
      path: "Sources/vcproto-bench"
    )
  ],
  swiftLanguageModes: [.v6]
)
