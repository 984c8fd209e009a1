// swift-tools-version:6.0
// libFuzzer targets for vcproto, in a package of their own (built with -sanitize=fuzzer,address).
import PackageDescription

let package = Package(
  name: "vcproto-fuzz",
  dependencies: [.package(name: "vcproto", path: "..")],
  targets: [
    .target(name: "FuzzDriver", path: "Sources/FuzzDriver"),
    .executableTarget(
      name: "fuzz-frame",
      dependencies: [
        "FuzzDriver", .product(name: "VCProto", package: "vcproto"), .product(name: "VCProtoCLI", package: "vcproto"),
      ], path: "Sources/fuzz-frame"),
    .executableTarget(
      name: "fuzz-envelope", dependencies: ["FuzzDriver", .product(name: "VCProto", package: "vcproto")],
      path: "Sources/fuzz-envelope"),
    .executableTarget(
      name: "fuzz-capture", dependencies: ["FuzzDriver", .product(name: "VCProtoCLI", package: "vcproto")],
      path: "Sources/fuzz-capture"),
    .executableTarget(
      name: "fuzz-auth", dependencies: ["FuzzDriver", .product(name: "VCProto", package: "vcproto")], path: "Sources/fuzz-auth"),
    .executableTarget(
      name: "fuzz-auth-frames", dependencies: ["FuzzDriver", .product(name: "VCProto", package: "vcproto")],
      path: "Sources/fuzz-auth-frames"),
    .executableTarget(
      name: "fuzz-engine",
      dependencies: [
        "FuzzDriver", .product(name: "VCProto", package: "vcproto"), .product(name: "VCProtoCLI", package: "vcproto"),
      ], path: "Sources/fuzz-engine"),
  ],
  swiftLanguageModes: [.v6]
)
