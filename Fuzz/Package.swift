// swift-tools-version:6.0
// libFuzzer targets for vcproto, in a package of their own (built with -sanitize=fuzzer,address).
import PackageDescription

let package = Package(
  name: "vcproto-fuzz",
  dependencies: [.package(name: "vcproto", path: "..")],
  targets: [
    .target(name: "FuzzDriver", path: "Sources/FuzzDriver"),
    // The root package's test support (a link to ../Tests/VCProtoTestSupport): the engine exerciser and
    // the findings-cap oracle, compiled here because a package's non-product targets are its own. It
    // uses only the library's public API (the engines check their own transition tables).
    .target(
      name: "VCProtoTestSupport",
      dependencies: [.product(name: "VCProto", package: "vcproto")],
      path: "Sources/VCProtoTestSupport"),
    .executableTarget(
      name: "fuzz-frame",
      dependencies: [
        "FuzzDriver", "VCProtoTestSupport", .product(name: "VCProto", package: "vcproto"),
      ], path: "Sources/fuzz-frame"),
    .executableTarget(
      name: "fuzz-envelope", dependencies: ["FuzzDriver", .product(name: "VCProto", package: "vcproto")],
      path: "Sources/fuzz-envelope"),
    .executableTarget(
      name: "fuzz-capture",
      dependencies: [
        "FuzzDriver", .product(name: "VCProto", package: "vcproto"),
        .product(name: "VCProtoCapture", package: "vcproto"),
      ],
      path: "Sources/fuzz-capture"),
    .executableTarget(
      name: "fuzz-auth", dependencies: ["FuzzDriver", .product(name: "VCProto", package: "vcproto")],
      path: "Sources/fuzz-auth"),
    .executableTarget(
      name: "fuzz-auth-frames", dependencies: ["FuzzDriver", .product(name: "VCProto", package: "vcproto")],
      path: "Sources/fuzz-auth-frames"),
    .executableTarget(
      name: "fuzz-engine",
      dependencies: [
        "FuzzDriver", "VCProtoTestSupport", .product(name: "VCProto", package: "vcproto"),
      ], path: "Sources/fuzz-engine"),
  ],
  swiftLanguageModes: [.v6]
)
