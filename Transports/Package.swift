// swift-tools-version:6.0
import PackageDescription

// WebSocket transports on swift-nio and the live tap (`vcproto-tap`). A separate package so the root
// package keeps no package dependencies: this one depends on the root package by path and on
// apple/swift-nio only.
let package = Package(
  name: "VCProtoTransports",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "VCProtoNIO", targets: ["VCProtoNIO"]),
    .executable(name: "vcproto-tap", targets: ["vcproto-tap"]),
  ],
  dependencies: [
    .package(name: "vcproto", path: ".."),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
  ],
  targets: [
    .target(
      name: "VCProtoNIO",
      dependencies: [
        .product(name: "VCProto", package: "vcproto"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
      ],
      path: "Sources/VCProtoNIO"
    ),
    .target(
      name: "VCProtoTap",
      dependencies: [
        "VCProtoNIO",
        .product(name: "VCProto", package: "vcproto"),
        .product(name: "VCProtoCapture", package: "vcproto"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      path: "Sources/VCProtoTap"
    ),
    .executableTarget(
      name: "vcproto-tap",
      dependencies: ["VCProtoTap"],
      path: "Sources/vcproto-tap"
    ),
    .executableTarget(
      name: "vcproto-tap-bench",
      dependencies: ["VCProtoNIO", "VCProtoTap"],
      path: "Sources/vcproto-tap-bench"
    ),
    // Test helpers shared by the test targets (child processes, ports); not a product.
    .target(
      name: "TransportTestSupport",
      dependencies: [.product(name: "NIOPosix", package: "swift-nio")],
      path: "Tests/TransportTestSupport"
    ),
    .testTarget(
      name: "VCProtoTapTests",
      dependencies: [
        "TransportTestSupport", "VCProtoNIO", "VCProtoTap", "vcproto-tap",
        .product(name: "VCProtoCapture", package: "vcproto"),
        .product(name: "VCProto", package: "vcproto"),
      ],
      path: "Tests/VCProtoTapTests"
    ),
    // End to end: the hosts over the NIO transports, against each other and against the Python
    // backend (Tests/Python/backend.py).
    .testTarget(
      name: "VCProtoEndToEndTests",
      dependencies: [
        "TransportTestSupport", "VCProtoNIO", "VCProtoTap",
        .product(name: "VCProtoCapture", package: "vcproto"),
        .product(name: "VCProto", package: "vcproto"),
      ],
      path: "Tests/VCProtoEndToEndTests"
    ),
  ],
  swiftLanguageModes: [.v6]
)
