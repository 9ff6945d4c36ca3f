// swift-tools-version:6.1
// Targets with the plain names an app or a library (swift-crypto, swift-nio) could also use.
import PackageDescription

let names = [
    "Bus", "Cache", "ClockSeam", "Crypto", "History", "NIOCore", "Noise", "Prices", "Seal", "Session", "Site", "Trace",
    "WebSocket",
]

let package = Package(
    name: "Neighbours",
    products: [.library(name: "Neighbours", targets: names)],
    targets: names.map { .target(name: $0) }
)
