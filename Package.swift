// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "wx",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "wx", targets: ["wx"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
  ],
  targets: [
    // libgdbm, from Debian's libgdbm-dev. Debian ships no gdbm.pc, so no pkgConfig here.
    .systemLibrary(
      name: "CGDBM",
      providers: [.apt(["libgdbm-dev"]), .brew(["gdbm"])]
    ),
    // libcurl, loaded with dlopen only when wx talks to the network, so that read
    // commands never pay for loading it (and its TLS stack) at start-up.
    .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
    .target(
      name: "WXCore",
      dependencies: ["CGDBM", "CCurl"]
    ),
    .executableTarget(
      name: "wx",
      dependencies: [
        "WXCore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(name: "WXCoreTests", dependencies: ["WXCore"]),
    .testTarget(name: "wxTests", dependencies: ["wx"]),
  ]
)
