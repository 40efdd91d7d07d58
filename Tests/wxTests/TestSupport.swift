// Every file of this target sees the shared harness (Tests/WXTestSupport: temp folders,
// running wx, the loopback stand-ins, fixtures) without importing it itself.
@_exported import WXTestSupport
