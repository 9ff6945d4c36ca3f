// swift-tools-version:6.1
// A second integrator's package, one a person looks at: the home screen, the connection and a node's live chart in
// a terminal, on ftw-core's `FTWClient` product alone. The frame is a pure function of what the client's
// observations gave and now (`LiveHomeScreen`), so its tests check an outage's frame without a terminal.
import PackageDescription

let package = Package(
    name: "LiveHome",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "ftw-core", path: "../..")],
    targets: [
        .target(
            name: "LiveHomeScreen",
            dependencies: [.product(name: "FTWClient", package: "ftw-core")]
        ),
        .executableTarget(
            name: "live-home",
            dependencies: ["LiveHomeScreen", .product(name: "FTWClient", package: "ftw-core")]
        ),
        .testTarget(
            name: "LiveHomeScreenTests",
            dependencies: [
                "LiveHomeScreen", .product(name: "FTWClient", package: "ftw-core"),
                .product(name: "FTWClockSeamTesting", package: "ftw-core"),
                .product(name: "FTWBoxProtocol", package: "ftw-core"),
            ]
        ),
    ]
)
