// swift-tools-version:6.1
// The whole client core in one manifest: every target names its folder, so each module owns one
// `Modules/<Name>/` subtree and the build, not a convention, keeps the boundaries.
import PackageDescription

/// A library target of a module: `Modules/<module>/Sources/<target>`.
func module(_ module: String, _ target: String, _ deps: [Target.Dependency] = []) -> Target {
    .target(name: target, dependencies: deps, path: "Modules/\(module)/Sources/\(target)")
}

/// A test target of a module: `Modules/<module>/Tests/<target>`.
func moduleTests(_ module: String, _ target: String, _ deps: [Target.Dependency]) -> Target {
    .testTarget(name: target, dependencies: deps, path: "Modules/\(module)/Tests/\(target)")
}

/// OpenSSL (libcrypto, and libssl for wss://) on Linux; Apple platforms use CryptoKit and URLSession instead.
let openSSL: Target.Dependency = .target(name: "COpenSSL", condition: .when(platforms: [.linux]))

/// Linux's epoll and eventfd, which Glibc's Swift module leaves out; elsewhere the event loop polls with `poll`.
let epoll: Target.Dependency = .target(name: "CEpoll", condition: .when(platforms: [.linux]))

/// The library products, one per target and named after it: each module's interface, its live implementation and
/// its test support, and `FTWClient`, the composition root an integrator starts from. Who may link what is in
/// docs/architecture.md; `Tools/check-boundaries.sh` checks that `FTWClient` links no demo box, simulation or test
/// support.
let libraries = [
    "Bus", "ClockSeam", "ClockSeamTesting", "Crypto", "BoxProtocol",
    "SessionInterface", "Noise", "SocketLoop", "WebSocket", "Session", "SessionTestSupport", "SessionTestHarness",
    "TLSCertificates", "SealInterface", "Seal", "SealTestSupport", "Cache", "Trace", "History", "HistoryTestSupport",
    "Prices", "Site",
    "FTWClient",
]

let package = Package(
    name: "ftw-core",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: libraries.map { .library(name: $0, targets: [$0]) } + [
        .executable(name: "ftw-headless", targets: ["ftw-headless"]),
        .executable(name: "ftw-demobox", targets: ["ftw-demobox"]),
        .executable(name: "ftw-frame", targets: ["ftw-frame"]),
        .executable(name: "ftw-bench", targets: ["ftw-bench"]),
    ],
    targets: [
        // Small shared pieces.
        module("Bus", "Bus"),
        moduleTests("Bus", "BusTests", ["Bus"]),
        module("Clock", "ClockSeam"),
        module("Clock", "ClockSeamTesting", ["ClockSeam"]),
        moduleTests("Clock", "ClockSeamTests", ["ClockSeam", "ClockSeamTesting"]),
        .systemLibrary(
            name: "COpenSSL",
            path: "Modules/Crypto/Sources/COpenSSL",
            providers: [.apt(["libssl-dev"])]
        ),
        module("Crypto", "Crypto", [openSSL]),
        moduleTests("Crypto", "CryptoTests", ["Crypto", "Fixtures"]),
        module("Fixtures", "Fixtures", ["Bus", "Spawning"]),

        // The wire, sans I/O.
        module("Protocol", "BoxProtocol"),
        moduleTests("Protocol", "BoxProtocolTests", ["BoxProtocol", "Fixtures"]),

        // The session: its interface, the wire pieces, the live actor, and fakes for the modules above it.
        module("Session", "SessionInterface", ["BoxProtocol", "Bus"]),
        module("Session", "Noise", ["Crypto"]),
        .systemLibrary(name: "CEpoll", path: "Modules/Session/Sources/CEpoll"),
        module("Session", "SocketLoop", [epoll, "ClockSeam"]),
        moduleTests("Session", "SocketLoopTests", ["SocketLoop"]),
        .target(
            name: "WebSocket",
            dependencies: [openSSL, "Bus", "SocketLoop"],
            path: "Modules/Session/Sources/WebSocket",
            exclude: ["README.md"]
        ),
        // Certificates made with libcrypto's X509 API, for the demo box and tests only.
        module("Session", "TLSCertificates", [openSSL]),
        module(
            "Session",
            "Session",
            ["SessionInterface", "BoxProtocol", "Noise", "SocketLoop", "WebSocket", "Crypto", "Bus", "ClockSeam"]
        ),
        module(
            "Session",
            "SessionTestSupport",
            ["SessionInterface", "BoxProtocol", "Bus", "ClockSeam", "Noise", "WebSocket", "Crypto"]
        ),
        module(
            "Session",
            "SessionTestHarness",
            ["Session", "SessionInterface", "BoxProtocol", "Bus", "ClockSeam", "ClockSeamTesting"]
        ),
        moduleTests("Session", "NoiseTests", ["Noise", "Crypto", "Fixtures"]),
        moduleTests(
            "Session",
            "WebSocketTests",
            [
                "WebSocket", "SocketLoop", "ClockSeam", "ClockSeamTesting", "TLSCertificates", "Spawning",
                "SessionTestSupport",
            ]
        ),
        moduleTests(
            "Session",
            "SessionTests",
            [
                "Session", "SessionInterface", "SessionTestSupport", "SessionTestHarness", "BoxProtocol", "Noise",
                "Crypto", "WebSocket", "Bus", "ClockSeam", "ClockSeamTesting", "Fixtures", "TLSCertificates",
                "SocketLoop",
            ]
        ),

        // Sealed files.
        module("Seal", "SealInterface", ["Bus"]),
        module("Seal", "Seal", ["SealInterface", "Crypto", "Bus"]),
        module("Seal", "SealTestSupport", ["Seal", "SealInterface", "Bus"]),
        moduleTests("Seal", "SealTests", ["Seal", "SealInterface", "SealTestSupport", "Bus"]),

        // The models: asks keyed on the data's age, the live trace, history, prices and the plan, the site.
        module("Cache", "Cache", ["SessionInterface", "SealInterface", "BoxProtocol", "Bus", "ClockSeam"]),
        moduleTests(
            "Cache",
            "CacheTests",
            [
                "Cache", "SessionInterface", "SessionTestSupport", "SealInterface", "Seal", "SealTestSupport",
                "BoxProtocol", "Bus", "ClockSeam", "ClockSeamTesting",
            ]
        ),
        module("Trace", "Trace", ["SessionInterface", "SealInterface", "BoxProtocol", "Bus", "ClockSeam"]),
        moduleTests(
            "Trace",
            "TraceTests",
            [
                "Trace", "SessionInterface", "SessionTestSupport", "SealInterface", "Seal", "SealTestSupport",
                "BoxProtocol", "Bus", "ClockSeam", "ClockSeamTesting",
            ]
        ),
        module(
            "History",
            "History",
            ["Cache", "SessionInterface", "SealInterface", "BoxProtocol", "Bus", "ClockSeam"]
        ),
        module("History", "HistoryTestSupport", ["BoxProtocol", "SessionInterface"]),
        moduleTests(
            "History",
            "HistoryTests",
            [
                "History", "HistoryTestSupport", "Cache", "SessionInterface", "SessionTestSupport", "SealInterface",
                "Seal", "SealTestSupport", "BoxProtocol", "Bus", "ClockSeam", "ClockSeamTesting", "Fixtures",
            ]
        ),
        module("Prices", "Prices", ["Cache", "SessionInterface", "SealInterface", "BoxProtocol", "Bus", "ClockSeam"]),
        moduleTests(
            "Prices",
            "PricesTests",
            [
                "Prices", "Cache", "SessionInterface", "SessionTestSupport", "SealInterface", "Seal", "SealTestSupport",
                "BoxProtocol", "Bus", "ClockSeam", "ClockSeamTesting",
            ]
        ),
        module("Site", "Site", ["Cache", "SessionInterface", "SealInterface", "BoxProtocol", "Bus", "ClockSeam"]),
        moduleTests(
            "Site",
            "SiteTests",
            [
                "Site", "Cache", "SessionInterface", "SessionTestSupport", "SealInterface", "Seal", "SealTestSupport",
                "BoxProtocol", "Bus", "ClockSeam", "ClockSeamTesting",
            ]
        ),

        // Apps: the simulated box (a library and its server) and the headless client (a library and its command).
        .target(
            name: "DemoBox",
            dependencies: [
                "BoxProtocol", "SessionInterface", "Noise", "WebSocket", "Crypto", "ClockSeam", "Bus",
                "TLSCertificates",
            ],
            path: "Apps/DemoBox/Sources/DemoBox"
        ),
        .executableTarget(
            name: "ftw-demobox",
            dependencies: ["DemoBox", "ClockSeam", "SocketLoop", "Bus"],
            path: "Apps/DemoBox/Sources/ftw-demobox"
        ),
        .testTarget(
            name: "DemoBoxTests",
            dependencies: [
                "DemoBox", "BoxProtocol", "SessionInterface", "Noise", "WebSocket", "Crypto", "ClockSeam",
                "ClockSeamTesting", "Bus", "Fixtures",
            ],
            path: "Apps/DemoBox/Tests/DemoBoxTests"
        ),
        // The client library an integrator links (the composition root, pairing, the data folder, the relay
        // dialer's wiring), and the command's own tooling (scenarios, the runner, the soak, the launch clock, reports),
        // which only `ftw-headless` and tests link.
        .target(
            name: "FTWClient",
            dependencies: [
                "Session", "SessionInterface", "Seal", "SealInterface", "Cache", "Trace", "History", "Prices", "Site",
                "BoxProtocol", "Bus", "ClockSeam", "Crypto", "Noise", "SocketLoop", "WebSocket",
            ],
            path: "Apps/Headless/Sources/FTWClient"
        ),
        .target(
            name: "HeadlessTooling",
            dependencies: [
                "FTWClient", "Session", "SessionInterface", "Seal", "SealInterface", "Cache", "Trace", "History",
                "Prices", "Site", "BoxProtocol", "Bus", "ClockSeam", "ClockSeamTesting", "Crypto", "DemoBox",
                "SocketLoop", "Spawning",
            ],
            path: "Apps/Headless/Sources/HeadlessTooling",
            resources: [.copy("Resources/Scenarios")]
        ),
        .testTarget(
            name: "HeadlessToolingTests",
            dependencies: [
                "HeadlessTooling", "FTWClient", "ftw-headless", "Fixtures", "SessionInterface", "Cache", "BoxProtocol",
                "Trace", "History", "SealInterface", "SealTestSupport", "SessionTestSupport", "Bus", "ClockSeamTesting",
                "Seal", "DemoBox", "Spawning",
            ],
            path: "Apps/Headless/Tests/HeadlessToolingTests"
        ),
        // An integrator's file, compiled with `import FTWClient` alone: the one-import promise, under the import check.
        .testTarget(
            name: "OneImportTests",
            dependencies: ["FTWClient"],
            path: "Apps/Headless/Tests/OneImportTests"
        ),
        // The Swift of README.md, docs/ and the DocC catalogs, compiled against FTWClient alone
        // (Tools/check-doc-snippets.sh checks every block is here or in an example package).
        .target(
            name: "DocSnippets",
            dependencies: ["FTWClient"],
            path: "Examples/Snippets",
            exclude: ["README.md"]
        ),
        .executableTarget(
            name: "ftw-headless",
            dependencies: ["HeadlessTooling", "ClockSeam", "SocketLoop"],
            path: "Apps/Headless/Sources/ftw-headless"
        ),

        // Tools.
        // Child processes started with a clean signal mask, for every tool and test that starts one.
        .target(name: "Spawning", path: "Tools/Spawning/Sources/Spawning"),
        .testTarget(name: "SpawningTests", dependencies: ["Spawning"], path: "Tools/Spawning/Tests/SpawningTests"),
        .target(
            name: "FrameInspector",
            dependencies: ["BoxProtocol"],
            path: "Tools/FrameInspector/Sources/FrameInspector"
        ),
        .executableTarget(
            name: "ftw-frame",
            dependencies: ["FrameInspector"],
            path: "Tools/FrameInspector/Sources/ftw-frame"
        ),
        .testTarget(
            name: "FrameInspectorTests",
            dependencies: ["FrameInspector", "BoxProtocol", "Fixtures"],
            path: "Tools/FrameInspector/Tests/FrameInspectorTests"
        ),
        // A child process that writes sealed files until it is killed, and the test that kills it.
        .executableTarget(
            name: "ftw-seal-writer",
            dependencies: ["Seal", "SealInterface", "Bus"],
            path: "Tools/SealWriter/Sources/ftw-seal-writer"
        ),
        .testTarget(
            name: "SealKillTests",
            dependencies: ["ftw-seal-writer", "Seal", "SealInterface", "Bus", "Fixtures", "Spawning"],
            path: "Tools/SealWriter/Tests/SealKillTests"
        ),
        // A scoped client in a process of its own with SIGINT and SIGTERM as its shutdown signals, for the test that
        // stops it with one.
        .executableTarget(
            name: "ftw-scoped-client",
            dependencies: ["FTWClient"],
            path: "Tools/ScopedClient/Sources/ftw-scoped-client"
        ),
        .executableTarget(
            name: "ftw-bench",
            dependencies: [
                "Trace", "History", "HistoryTestSupport", "Seal", "SealInterface", "SessionInterface", "BoxProtocol",
                "Crypto", "Bus", "ClockSeam", "ClockSeamTesting", "WebSocket", "TLSCertificates", "Session", "DemoBox",
                "Fixtures", "Noise", "COpenSSL", "SessionTestSupport", "SessionTestHarness", "FTWClient",
                "SealTestSupport",
                "Cache", "Prices", "Site", "HeadlessTooling", "Spawning", "SocketLoop",
            ],
            path: "Tools/Benchmarks/Sources/ftw-bench"
        ),
        // The C floor `ftw-bench frame --real` measures a live frame against: open, walk, and for wss SSL_read.
        .executableTarget(
            name: "ftw-frame-floor",
            path: "Tools/Benchmarks/Sources/ftw-frame-floor",
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]
        ),
        // The C program `ftw-headless launch-clock` times the first content against: the sealed files read and opened.
        .executableTarget(
            name: "ftw-launch-baseline",
            path: "Tools/Benchmarks/Sources/ftw-launch-baseline",
            linkerSettings: [.linkedLibrary("crypto")]
        ),

        // Cross-module and end-to-end tests.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "FTWClient", "HeadlessTooling", "DemoBox", "Session", "SessionInterface", "SessionTestHarness", "Seal",
                "SealInterface", "Cache", "Trace", "History", "Prices", "Site", "BoxProtocol", "Bus", "ClockSeam",
                "ClockSeamTesting", "Fixtures", "Noise", "SocketLoop", "ftw-demobox", "TLSCertificates", "Spawning",
                "ftw-scoped-client",
                "SealTestSupport",
            ],
            path: "Tests/EndToEndTests"
        ),
    ]
)

// libFuzzer targets, in the graph only for `Tools/run-fuzzers.sh` (FTW_FUZZ=1): each has no `main` (libFuzzer brings
// one), so a plain `swift build` could not link them.
if Context.environment["FTW_FUZZ"] == "1" {
    let fuzzers: [(name: String, deps: [Target.Dependency])] = [
        ("fuzz-cbor", ["BoxProtocol"]),
        ("fuzz-frame", ["BoxProtocol"]),
        ("fuzz-messages", ["BoxProtocol"]),
        ("fuzz-noise", ["Noise"]),
        ("fuzz-websocket", ["WebSocket"]),
        ("fuzz-sealed", ["Seal", "SealInterface"]),
        ("fuzz-scenario", ["HeadlessTooling"]),
    ]
    package.targets.append(
        .target(name: "FuzzSupport", dependencies: ["BoxProtocol"], path: "Tools/Fuzz/Sources/FuzzSupport")
    )
    for fuzzer in fuzzers {
        package.targets.append(
            .executableTarget(
                name: fuzzer.name,
                dependencies: fuzzer.deps + ["FuzzSupport"],
                path: "Tools/Fuzz/Sources/\(fuzzer.name)"
            )
        )
    }
}

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
