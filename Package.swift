// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "vcproto",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "VCProto", targets: ["VCProto"]),
    .executable(name: "vcproto", targets: ["vcproto"]),
    // The command line's logic, for the fuzz targets and other tools (not a stable API).
    .library(name: "VCProtoCLI", targets: ["VCProtoCLI"]),
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
      name: "VCProtoCLI",
      dependencies: ["VCProto"],
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
    .testTarget(
      name: "VCProtoTests",
      dependencies: ["VCProto", "VCProtoCodegen", "VCProtoCLI"],
      path: "Tests/VCProtoTests"
    ),
    .testTarget(
      name: "VCProtoCLITests",
      dependencies: ["VCProto", "VCProtoCLI"],
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
