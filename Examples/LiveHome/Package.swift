// swift-tools-version:6.1
// A second integrator's package, one a person looks at: the home screen and a node's live chart in a terminal,
// on ftw-core's `FTWClient` product alone.
import PackageDescription

let package = Package(
    name: "LiveHome",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "ftw-core", path: "../..")],
    targets: [
        .executableTarget(
            name: "live-home",
            dependencies: [.product(name: "FTWClient", package: "ftw-core")]
        )
    ]
)
