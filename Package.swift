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

/// What every model's tests build their world from, beside their own module: a scripted session and a sealed store
/// in a temporary folder (the interfaces, their test support and the live seal), the wire's types, the bus, and a
/// simulation's manual clock. Written once here rather than restated by each model's test target.
let modelTestKit: [Target.Dependency] = [
    "FTWSessionInterface", "FTWSessionTestSupport", "FTWSealInterface", "FTWSeal", "FTWSealTestSupport",
    "FTWBoxProtocol", "FTWBus", "FTWClockSeam", "FTWClockSeamTesting",
]

/// The test target of a model module (`Modules/<module>/Tests/<target>`): `own` and the ``modelTestKit``.
func modelTests(_ module: String, _ target: String, _ own: [Target.Dependency]) -> Target {
    moduleTests(module, target, own + modelTestKit)
}

/// OpenSSL (libcrypto, and libssl for wss://) on Linux; Apple platforms use CryptoKit and URLSession instead.
let openSSL: Target.Dependency = .target(name: "CFTWOpenSSL", condition: .when(platforms: [.linux]))

/// Linux's epoll and eventfd, which Glibc's Swift module leaves out; elsewhere the event loop polls with `poll`.
let epoll: Target.Dependency = .target(name: "CFTWEpoll", condition: .when(platforms: [.linux]))

/// The library products, one per target and named after it: each module's interface, its live implementation and
/// its test support, and `FTWClient`, the composition root an integrator starts from. Who may link what is in
/// docs/architecture.md; `Tools/check-boundaries.sh` checks that `FTWClient` links no demo box, simulation or test
/// support.
let libraries = [
    "FTWBus", "FTWClockSeam", "FTWClockSeamTesting", "FTWCrypto", "FTWBoxProtocol",
    "FTWSessionInterface", "FTWNoise", "FTWSocketLoop", "FTWWebSocket", "FTWSession", "FTWSessionTestSupport",
    "FTWSessionTestHarness",
    "FTWTLSCertificates", "FTWSealInterface", "FTWSeal", "FTWSealTestSupport", "FTWCache", "FTWTrace", "FTWHistory",
    "FTWHistoryTestSupport",
    "FTWPrices", "FTWSite",
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
        module("Bus", "FTWBus"),
        moduleTests("Bus", "FTWBusTests", ["FTWBus"]),
        module("Clock", "FTWClockSeam"),
        module("Clock", "FTWClockSeamTesting", ["FTWClockSeam"]),
        moduleTests("Clock", "FTWClockSeamTests", ["FTWClockSeam", "FTWClockSeamTesting"]),
        .systemLibrary(
            name: "CFTWOpenSSL",
            path: "Modules/Crypto/Sources/CFTWOpenSSL",
            providers: [.apt(["libssl-dev"])]
        ),
        module("Crypto", "FTWCrypto", [openSSL, "FTWBus"]),
        moduleTests("Crypto", "FTWCryptoTests", ["FTWCrypto", "FTWFixtures"]),
        module("Fixtures", "FTWFixtures", ["FTWBus", "FTWSpawning"]),
        // The `.ownThread` trait, apart from the vectors: it imports Testing, which a tool linking the vectors (the
        // benchmarks) would otherwise load, and each of the runtime's conformance scans reads Testing's 548 too.
        module("Fixtures", "FTWTestingTraits"),
        moduleTests("Fixtures", "FTWFixturesTests", ["FTWFixtures", "FTWTestingTraits"]),

        // The wire, sans I/O.
        module("Protocol", "FTWBoxProtocol"),
        moduleTests("Protocol", "FTWBoxProtocolTests", ["FTWBoxProtocol", "FTWFixtures", "FTWTestingTraits"]),

        // The session: its interface, the wire pieces, the live actor, and fakes for the modules above it.
        module("Session", "FTWSessionInterface", ["FTWBoxProtocol", "FTWBus"]),
        module("Session", "FTWNoise", ["FTWCrypto", "FTWBus"]),
        .systemLibrary(name: "CFTWEpoll", path: "Modules/Session/Sources/CFTWEpoll"),
        module("Session", "FTWSocketLoop", [epoll, "FTWClockSeam", "FTWBus"]),
        moduleTests("Session", "FTWSocketLoopTests", ["FTWSocketLoop", "FTWClockSeam"]),
        .target(
            name: "FTWWebSocket",
            dependencies: [openSSL, "FTWBus", "FTWSocketLoop"],
            path: "Modules/Session/Sources/FTWWebSocket",
            exclude: ["README.md"]
        ),
        // Certificates made with libcrypto's X509 API, for the demo box and tests only.
        module("Session", "FTWTLSCertificates", [openSSL]),
        module(
            "Session",
            "FTWSession",
            [
                "FTWSessionInterface", "FTWBoxProtocol", "FTWNoise", "FTWSocketLoop", "FTWWebSocket", "FTWCrypto",
                "FTWBus", "FTWClockSeam",
            ]
        ),
        module(
            "Session",
            "FTWSessionTestSupport",
            [
                "FTWSessionInterface", "FTWBoxProtocol", "FTWBus", "FTWClockSeam", "FTWNoise", "FTWWebSocket",
                "FTWCrypto",
            ]
        ),
        module(
            "Session",
            "FTWSessionTestHarness",
            ["FTWSession", "FTWSessionInterface", "FTWBoxProtocol", "FTWBus", "FTWClockSeam", "FTWClockSeamTesting"]
        ),
        moduleTests("Session", "FTWNoiseTests", ["FTWNoise", "FTWCrypto", "FTWFixtures", "FTWTestingTraits"]),
        moduleTests(
            "Session",
            "FTWWebSocketTests",
            [
                "FTWWebSocket", "FTWSocketLoop", "FTWClockSeam", "FTWClockSeamTesting", "FTWTLSCertificates",
                "FTWSpawning", "FTWFixtures",
                "FTWSessionTestSupport",
            ]
        ),
        moduleTests(
            "Session",
            "FTWSessionTests",
            [
                "FTWSession", "FTWSessionInterface", "FTWSessionTestSupport", "FTWSessionTestHarness", "FTWBoxProtocol",
                "FTWNoise",
                "FTWCrypto", "FTWWebSocket", "FTWBus", "FTWClockSeam", "FTWClockSeamTesting", "FTWFixtures",
                "FTWTLSCertificates",
                "FTWSocketLoop",
            ]
        ),

        // Sealed files.
        module("Seal", "FTWSealInterface", ["FTWBus"]),
        module("Seal", "FTWSeal", ["FTWSealInterface", "FTWCrypto", "FTWBus"]),
        module("Seal", "FTWSealTestSupport", ["FTWSeal", "FTWSealInterface", "FTWBus"]),
        moduleTests(
            "Seal",
            "FTWSealTests",
            ["FTWSeal", "FTWSealInterface", "FTWSealTestSupport", "FTWBus", "FTWFixtures", "FTWTestingTraits"]
        ),

        // The models: asks keyed on the data's age, the live trace, history, prices and the plan, the site.
        module(
            "Cache",
            "FTWCache",
            ["FTWSessionInterface", "FTWSealInterface", "FTWBoxProtocol", "FTWBus", "FTWClockSeam"]
        ),
        modelTests("Cache", "FTWCacheTests", ["FTWCache"]),
        module(
            "Trace",
            "FTWTrace",
            ["FTWSessionInterface", "FTWSealInterface", "FTWBoxProtocol", "FTWBus", "FTWClockSeam"]
        ),
        modelTests("Trace", "FTWTraceTests", ["FTWTrace", "FTWFixtures", "FTWTestingTraits"]),
        module(
            "History",
            "FTWHistory",
            ["FTWCache", "FTWSessionInterface", "FTWSealInterface", "FTWBoxProtocol", "FTWBus", "FTWClockSeam"]
        ),
        module("History", "FTWHistoryTestSupport", ["FTWBoxProtocol", "FTWSessionInterface"]),
        modelTests("History", "FTWHistoryTests", ["FTWHistory", "FTWHistoryTestSupport", "FTWCache", "FTWFixtures"]),
        module(
            "Prices",
            "FTWPrices",
            ["FTWCache", "FTWSessionInterface", "FTWSealInterface", "FTWBoxProtocol", "FTWBus", "FTWClockSeam"]
        ),
        modelTests("Prices", "FTWPricesTests", ["FTWPrices", "FTWCache", "FTWFixtures", "FTWTestingTraits"]),
        module(
            "Site",
            "FTWSite",
            ["FTWCache", "FTWSessionInterface", "FTWSealInterface", "FTWBoxProtocol", "FTWBus", "FTWClockSeam"]
        ),
        modelTests("Site", "FTWSiteTests", ["FTWSite", "FTWCache"]),

        // Apps: the simulated box (a library and its server) and the headless client (a library and its command).
        .target(
            name: "FTWDemoBox",
            dependencies: [
                "FTWBoxProtocol", "FTWSessionInterface", "FTWNoise", "FTWWebSocket", "FTWCrypto", "FTWClockSeam",
                "FTWBus",
                "FTWTLSCertificates",
            ],
            path: "Apps/DemoBox/Sources/FTWDemoBox"
        ),
        .executableTarget(
            name: "ftw-demobox",
            dependencies: ["FTWDemoBox", "FTWClockSeam", "FTWSocketLoop", "FTWBus"],
            path: "Apps/DemoBox/Sources/ftw-demobox"
        ),
        .testTarget(
            name: "FTWDemoBoxTests",
            dependencies: [
                "FTWDemoBox", "FTWBoxProtocol", "FTWSessionInterface", "FTWNoise", "FTWWebSocket", "FTWCrypto",
                "FTWClockSeam",
                "FTWClockSeamTesting", "FTWBus", "FTWFixtures",
            ],
            path: "Apps/DemoBox/Tests/FTWDemoBoxTests"
        ),
        // The client library an integrator links (the composition root, pairing, the data folder, the relay
        // dialer's wiring), and the command's own tooling (scenarios, the runner, the soak, the launch clock, reports),
        // which only `ftw-headless` and tests link.
        .target(
            name: "FTWClient",
            dependencies: [
                "FTWSession", "FTWSessionInterface", "FTWSeal", "FTWSealInterface", "FTWCache", "FTWTrace",
                "FTWHistory", "FTWPrices", "FTWSite",
                "FTWBoxProtocol", "FTWBus", "FTWClockSeam", "FTWCrypto", "FTWNoise", "FTWSocketLoop", "FTWWebSocket",
            ],
            path: "Apps/Headless/Sources/FTWClient"
        ),
        .target(
            name: "FTWHeadlessTooling",
            dependencies: [
                "FTWClient", "FTWSession", "FTWSessionInterface", "FTWSeal", "FTWSealInterface", "FTWCache", "FTWTrace",
                "FTWHistory",
                "FTWPrices", "FTWSite", "FTWBoxProtocol", "FTWBus", "FTWClockSeam", "FTWClockSeamTesting", "FTWCrypto",
                "FTWDemoBox",
                "FTWNoise", "FTWSocketLoop", "FTWSpawning",
            ],
            path: "Apps/Headless/Sources/FTWHeadlessTooling",
            resources: [.copy("Resources/Scenarios")]
        ),
        .testTarget(
            name: "FTWHeadlessToolingTests",
            dependencies: [
                "FTWHeadlessTooling", "FTWClient", "ftw-headless", "FTWFixtures", "FTWSessionInterface", "FTWCache",
                "FTWBoxProtocol",
                "FTWTrace", "FTWHistory", "FTWSealInterface", "FTWSealTestSupport", "FTWSessionTestSupport", "FTWBus",
                "FTWClockSeamTesting",
                "FTWSeal", "FTWSession", "FTWDemoBox", "FTWSpawning",
            ],
            path: "Apps/Headless/Tests/FTWHeadlessToolingTests"
        ),
        // An integrator's file, compiled with `import FTWClient` alone: the one-import promise, under the import check.
        .testTarget(
            name: "OneImportTests",
            dependencies: ["FTWClient"],
            path: "Apps/Headless/Tests/OneImportTests"
        ),
        // `import FTWClient` beside a library declaring `EventLoop`, `CBOR`, `Frame`, `TLSConfiguration`: names that are
        // ambiguous if FTWClient re-exports a whole module instead of its curated types.
        .target(name: "FTWNeighbourLibrary", path: "Apps/Headless/Tests/FTWNeighbourLibrary"),
        .testTarget(
            name: "CuratedSurfaceTests",
            dependencies: ["FTWClient", "FTWNeighbourLibrary"],
            path: "Apps/Headless/Tests/CuratedSurfaceTests"
        ),
        // The Swift of README.md, docs/ and the DocC catalogs, compiled against FTWClient alone
        // (Tools/check-doc-snippets.sh checks every block is here or in an example package).
        .target(
            name: "FTWDocSnippets",
            dependencies: ["FTWClient"],
            path: "Examples/Snippets",
            exclude: ["README.md"]
        ),
        .executableTarget(
            name: "ftw-headless",
            dependencies: ["FTWHeadlessTooling", "FTWClockSeam", "FTWSocketLoop"],
            path: "Apps/Headless/Sources/ftw-headless"
        ),

        // Tools.
        // Child processes started with a clean signal mask, for every tool and test that starts one.
        .target(name: "FTWSpawning", path: "Tools/Spawning/Sources/FTWSpawning"),
        .testTarget(
            name: "FTWSpawningTests",
            dependencies: ["FTWSpawning"],
            path: "Tools/Spawning/Tests/FTWSpawningTests"
        ),
        .target(
            name: "FTWFrameInspector",
            dependencies: ["FTWBoxProtocol"],
            path: "Tools/FrameInspector/Sources/FTWFrameInspector"
        ),
        .executableTarget(
            name: "ftw-frame",
            dependencies: ["FTWFrameInspector"],
            path: "Tools/FrameInspector/Sources/ftw-frame"
        ),
        .testTarget(
            name: "FTWFrameInspectorTests",
            dependencies: ["FTWFrameInspector", "FTWBoxProtocol", "FTWFixtures", "FTWTestingTraits"],
            path: "Tools/FrameInspector/Tests/FTWFrameInspectorTests"
        ),
        // A child process that writes sealed files until it is killed, and the test that kills it.
        .executableTarget(
            name: "ftw-seal-writer",
            dependencies: ["FTWSeal", "FTWSealInterface", "FTWBus"],
            path: "Tools/SealWriter/Sources/ftw-seal-writer"
        ),
        .testTarget(
            name: "SealKillTests",
            dependencies: ["ftw-seal-writer", "FTWSeal", "FTWSealInterface", "FTWBus", "FTWFixtures", "FTWSpawning"],
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
                "FTWTrace", "FTWHistory", "FTWHistoryTestSupport", "FTWSeal", "FTWSealInterface", "FTWSessionInterface",
                "FTWBoxProtocol",
                "FTWCrypto", "FTWBus", "FTWClockSeam", "FTWClockSeamTesting", "FTWWebSocket", "FTWTLSCertificates",
                "FTWSession", "FTWDemoBox",
                "FTWFixtures", "FTWNoise", "CFTWOpenSSL", "FTWSessionTestSupport", "FTWSessionTestHarness", "FTWClient",
                "FTWSealTestSupport",
                "FTWCache", "FTWPrices", "FTWSite", "FTWHeadlessTooling", "FTWSpawning", "FTWSocketLoop",
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
                "FTWClient", "FTWHeadlessTooling", "FTWDemoBox", "FTWSession", "FTWSessionInterface",
                "FTWSessionTestHarness", "FTWSeal",
                "FTWSealInterface", "FTWCache", "FTWTrace", "FTWHistory", "FTWPrices", "FTWSite", "FTWBoxProtocol",
                "FTWBus", "FTWClockSeam",
                "FTWClockSeamTesting", "FTWFixtures", "FTWNoise", "FTWSocketLoop", "ftw-demobox", "FTWTLSCertificates",
                "FTWSpawning",
                "ftw-scoped-client",
                "FTWSealTestSupport",
            ],
            path: "Tests/EndToEndTests"
        ),
    ]
)

// libFuzzer targets, in the graph only for `Tools/run-fuzzers.sh` (FTW_FUZZ=1): each has no `main` (libFuzzer brings
// one), so a plain `swift build` could not link them.
if Context.environment["FTW_FUZZ"] == "1" {
    let fuzzers: [(name: String, deps: [Target.Dependency])] = [
        ("fuzz-cbor", ["FTWBoxProtocol"]),
        ("fuzz-frame", ["FTWBoxProtocol"]),
        ("fuzz-messages", ["FTWBoxProtocol"]),
        ("fuzz-noise", ["FTWBus", "FTWNoise"]),
        ("fuzz-websocket", ["FTWWebSocket"]),
        ("fuzz-sealed", ["FTWSeal", "FTWSealInterface"]),
        ("fuzz-scenario", ["FTWHeadlessTooling"]),
    ]
    package.targets.append(
        .target(name: "FTWFuzzSupport", dependencies: ["FTWBoxProtocol"], path: "Tools/Fuzz/Sources/FTWFuzzSupport")
    )
    for fuzzer in fuzzers {
        package.targets.append(
            .executableTarget(
                name: fuzzer.name,
                dependencies: fuzzer.deps + ["FTWFuzzSupport"],
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
