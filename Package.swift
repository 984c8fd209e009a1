// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "vcproto",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "VCProto", targets: ["VCProto"]),
    .executable(name: "vcproto", targets: ["vcproto"]),
    // Reading captures and checking them as `vcproto validate` does (the tap and the fuzz targets use it).
    .library(name: "VCProtoCapture", targets: ["VCProtoCapture"]),
  ],
  targets: [
    .systemLibrary(
      name: "CZlib",
      path: "Sources/CZlib",
      providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
    ),
    .target(
      name: "VCProto",
      dependencies: ["CZlib"],
      path: "Sources/VCProto"
    ),
    .target(
      name: "VCProtoCodegen",
      dependencies: ["VCProto"],
      path: "Sources/VCProtoCodegen"
    ),
    .target(
      name: "VCProtoCapture",
      dependencies: ["VCProto"],
      path: "Sources/VCProtoCapture"
    ),
    // The command line's logic, for the `vcproto` and `vcproto-dev` executables and the tests: not a product.
    .target(
      name: "VCProtoCLI",
      dependencies: ["VCProto", "VCProtoCapture"],
      path: "Sources/VCProtoCLI"
    ),
    .executableTarget(
      name: "vcproto",
      dependencies: ["VCProtoCLI"],
      path: "Sources/vcproto"
    ),
    // The maintainers' commands (generate-model, generate-spec, schema, hmac): `swift run vcproto-dev`.
    // Not a product; it is the only executable that links the code generator.
    .executableTarget(
      name: "vcproto-dev",
      dependencies: ["VCProtoCLI", "VCProtoCodegen"],
      path: "Sources/vcproto-dev"
    ),
    // Test support: the engine exerciser and the findings-cap oracle, shared by the tests and the fuzz
    // targets (Fuzz/Sources/VCProtoTestSupport is a link to this folder). Not a product.
    .target(
      name: "VCProtoTestSupport",
      dependencies: ["VCProto"],
      path: "Tests/VCProtoTestSupport"
    ),
    .testTarget(
      name: "VCProtoTests",
      dependencies: ["VCProto", "VCProtoCodegen", "VCProtoCLI", "VCProtoTestSupport"],
      path: "Tests/VCProtoTests"
    ),
    .testTarget(
      name: "VCProtoCLITests",
      dependencies: ["VCProto", "VCProtoCapture", "VCProtoCLI", "VCProtoTestSupport"],
      path: "Tests/VCProtoCLITests"
    ),
    .testTarget(
      name: "VCProtoEnvelopeTests",
      dependencies: ["VCProto", "CZlib"],
      path: "Tests/VCProtoEnvelopeTests"
    ),
  ],
  swiftLanguageModes: [.v6]
)
