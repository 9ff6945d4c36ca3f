// swift-tools-version:6.1
// An integrator's package that depends on ftw-core and on a package whose targets carry the plain names a module of
// its own, or of a library such as apple/swift-crypto, would (`Crypto`, `Session`, `Cache`, …). SwiftPM refuses a
// graph where two packages declare one target name, so this builds only while every ftw-core target is prefixed
// (`FTWCrypto`, `FTWSession`): Tools/run-example.sh builds it in CI.
import PackageDescription

let package = Package(
    name: "NameClash",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "ftw-core", path: "../.."),
        .package(name: "Neighbours", path: "Neighbours"),
    ],
    targets: [
        .executableTarget(
            name: "name-clash",
            dependencies: [
                .product(name: "FTWClient", package: "ftw-core"),
                .product(name: "Neighbours", package: "Neighbours"),
            ]
        )
    ]
)
