// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "vcproto",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    // The whole library (the umbrella module re-exports the four below).
    .library(name: "VCProto", targets: ["VCProto"]),
    // Its parts, for an app that wants less: JSON alone; the protocol core (model, codec, validator)
    // without the connection code or zlib; the compression envelope; the connection (engines, hosts)
    // without zlib.
    .library(name: "VCProtoJSON", targets: ["VCProtoJSON"]),
    .library(name: "VCProtoCore", targets: ["VCProtoCore"]),
    .library(name: "VCProtoEnvelope", targets: ["VCProtoEnvelope"]),
    .library(name: "VCProtoConnection", targets: ["VCProtoConnection"]),
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
    // Strict RFC 8259 JSON: the parser, the writer, JSONValue and numbers. Knows nothing of the protocol.
    .target(
      name: "VCProtoJSON",
      path: "Sources/VCProtoJSON"
    ),
    // The protocol: catalog, rules, the typed model (Generated/), validator, codec, logging.
    .target(
      name: "VCProtoCore",
      dependencies: ["VCProtoJSON"],
      path: "Sources/VCProtoCore"
    ),
    // The compression envelope, the only part that links zlib.
    .target(
      name: "VCProtoEnvelope",
      dependencies: ["VCProtoCore", "CZlib"],
      path: "Sources/VCProtoEnvelope"
    ),
    // Negotiation, authentication, the connection engines, the observer, hosts and transports. Not
    // zlib: the engines open envelopes with what their configuration brings (`EnvelopeOpening`).
    .target(
      name: "VCProtoConnection",
      dependencies: ["VCProtoCore"],
      path: "Sources/VCProtoConnection"
    ),
    // The umbrella: `import VCProto` re-exports the four modules above, and adds the URLSession
    // WebSocket transport (the only code that links FoundationNetworking). Its DocC catalog documents them.
    .target(
      name: "VCProto",
      dependencies: ["VCProtoJSON", "VCProtoCore", "VCProtoEnvelope", "VCProtoConnection"],
      path: "Sources/VCProto"
    ),
    .target(
      name: "VCProtoCodegen",
      dependencies: ["VCProtoCore"],
      path: "Sources/VCProtoCodegen"
    ),
    // Not the umbrella: the command line links neither the URLSession transport nor, through it,
    // FoundationNetworking and libcurl (process start: see Benchmarks/RESULTS.md).
    .target(
      name: "VCProtoCapture",
      dependencies: ["VCProtoJSON", "VCProtoCore", "VCProtoEnvelope", "VCProtoConnection"],
      path: "Sources/VCProtoCapture"
    ),
    // The command line's logic, for the `vcproto` and `vcproto-dev` executables and the tests: not a product.
    .target(
      name: "VCProtoCLI",
      dependencies: ["VCProtoJSON", "VCProtoCore", "VCProtoEnvelope", "VCProtoConnection", "VCProtoCapture"],
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
    // The connection without the envelope module: what an app that never compresses links.
    .testTarget(
      name: "VCProtoConnectionTests",
      dependencies: ["VCProtoConnection"],
      path: "Tests/VCProtoConnectionTests"
    ),
    .testTarget(
      name: "VCProtoEnvelopeTests",
      dependencies: ["VCProto", "VCProtoEnvelope", "CZlib"],
      path: "Tests/VCProtoEnvelopeTests"
    ),
  ],
  swiftLanguageModes: [.v6]
)
