// swift-tools-version:6.1
// An integrator's package: it depends on ftw-core by path and uses its `FTWClient` product only.
import PackageDescription

let package = Package(
    name: "MinimalClient",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "ftw-core", path: "../..")],
    targets: [
        .executableTarget(
            name: "minimal-client",
            dependencies: [.product(name: "FTWClient", package: "ftw-core")]
        )
    ]
)
