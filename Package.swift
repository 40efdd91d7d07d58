// swift-tools-version:6.0
import PackageDescription

// wx is a Linux program: it calls glibc directly (`import Glibc`, mallopt, renameat2, /proc,
// Linux's termios and signals), and its build links libgdbm and dlopens libcurl as Debian
// ships them. Elsewhere the build stops here rather than at the first Linux-only call.
#if !os(Linux)
  #error("wx builds on Linux only (see README.md)")
#endif

let package = Package(
  name: "wx",
  products: [
    .executable(name: "wx", targets: ["wx"]),
    // The WebSocket feed client that `wx aqi watch` runs; installed in PREFIX/libexec/wx.
    .executable(name: "wx-aqi-watch", targets: ["wx-aqi-watch"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    // WebSocket client for `wx aqi watch` only (WXLive, in the wx-aqi-watch executable).
    .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
  ],
  targets: [
    // libgdbm, from Debian's libgdbm-dev. Debian ships no gdbm.pc, so no pkgConfig here.
    .systemLibrary(
      name: "CGDBM",
      providers: [.apt(["libgdbm-dev"])]
    ),
    // libcurl, loaded with dlopen only when wx talks to the network, so that read
    // commands never pay for loading it (and its TLS stack) at start-up.
    .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
    // CRC-32 by carry-less multiplication (PCLMULQDQ, when the processor has it): every value
    // a store gives back is checked, and a search at a million cities checks 40 blocks.
    .target(name: "CCRC32"),
    // The command line for the Swift runtime, kept from the C library's start-up: the
    // runtime's own lookup read /proc/self/maps at every start (Sources/CStart/start.c).
    .target(name: "CStart"),
    // The system's OpenSSL (libssl3, kept current by apt) for wx-aqi-watch's wss:// feeds.
    .systemLibrary(
      name: "CTLS",
      providers: [.apt(["libssl-dev"])]
    ),
    // The pipe contract between `wx aqi watch` and its feed client (records, feed URLs) and the
    // text-safety rules both sides apply (unsafe scalars, stored text, redaction): no GDBM, no
    // libcurl, so wx-aqi-watch links neither (`make build` and FeedClientLinkTests check).
    .target(name: "WXFeed"),
    .target(
      name: "WXCore",
      dependencies: ["WXFeed", "CGDBM", "CCurl", "CCRC32"]
    ),
    // The live air-quality feed: a WebSocket client (ws:// and wss://) on SwiftNIO, its TLS
    // the system's OpenSSL, run as its own executable, wx-aqi-watch, which `wx aqi watch`
    // spawns and reads over a pipe. Linked into wx, NIO and TLS added about 0.5 ms to every
    // command's start-up.
    .target(
      name: "WXLive",
      dependencies: [
        "WXFeed",
        "CTLS",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
      ]
    ),
    .executableTarget(
      name: "wx",
      dependencies: [
        "CStart",
        "WXCore",
        "WXFeed",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(name: "wx-aqi-watch", dependencies: ["WXFeed", "WXLive"]),
    // Open-Meteo answers in files decoded as a sync decodes them, for callgrind in `make bench`
    // (scripts/bench-fresh.sh): valgrind cannot run `wx sync` itself. Not a product.
    .executableTarget(name: "wx-decode-bench", dependencies: ["WXCore"]),
    // What both test targets share: running wx, temp folders, the Python stand-ins of
    // Tests/Support, fixtures (ARCHITECTURE.md, "Tests"). Not a product: only tests use it.
    .target(name: "WXTestSupport", path: "Tests/WXTestSupport"),
    .testTarget(name: "WXCoreTests", dependencies: ["WXCore", "WXFeed", "WXTestSupport"]),
    // WXCore too: some tests write stores directly, as an older wx or a foreign file would.
    .testTarget(name: "wxTests", dependencies: ["wx", "WXCore", "WXTestSupport"]),
  ]
)
