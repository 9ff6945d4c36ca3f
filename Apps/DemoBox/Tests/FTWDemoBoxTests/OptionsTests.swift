import FTWBus
import FTWDemoBox
import FTWNoise
import Foundation
import Testing

@Suite struct OptionsTests {
    @Test func everyFlagSetsItsKnob() throws {
        let options = try DemoBoxOptions.parse([
            "--port", "9000", "--state", "/tmp/box", "--publish", "12:45", "--prices-late", "--latency", "120",
            "--no-prefs",
        ])
        #expect(options.port == 9000 && options.stateFolder == "/tmp/box")
        #expect(options.publishHour == 12 && options.publishMinute == 45)
        #expect(options.pricesLate && options.latencyMs == 120 && !options.servesPlannerPrefs)
        #expect(try DemoBoxOptions.parse(["--tls", "--state", "/tmp/box"]).servesTLS)
        let configuration = options.configuration(identity: .generate(), devices: [])
        #expect(configuration.pricePublish == (12, 45) && configuration.relayLatency == .milliseconds(120))
        #expect(configuration.pricesLate && !configuration.servesPlannerPrefs)
    }

    /// A relay shortened for a wall-clock test: its epochs and spread reach the box's relay, and the box says so.
    @Test func theRelaysEpochAndSpreadAreShortenedTogether() throws {
        let options = try DemoBoxOptions.parse(["--epoch-ms", "60000", "--rotation-spread", "20s"])
        #expect(options.relaySchedule == RelaySchedule(epochMs: 60_000, rotationSpreadMs: 20_000))
        #expect(options.configuration(identity: .generate(), devices: []).relaySchedule == options.relaySchedule)
        #expect(
            options.relayScheduleNote == "relay epochs: 60000 ms, old rooms moved within 20000 ms of each epoch's start"
        )
        #expect(try DemoBoxOptions.parse(["--rotation-spread", "300ms"]).relaySchedule.rotationSpreadMs == 300)
        #expect(try DemoBoxOptions.parse([]).relayScheduleNote == nil)
        #expect(try DemoBoxOptions.parse(["--rotation-spread", "5m"]).relaySchedule == .production)
    }

    @Test func noFlagsMeansTheDefaults() throws {
        let options = try DemoBoxOptions.parse([])
        #expect(options == DemoBoxOptions())
        #expect(try DemoBoxOptions.parse(["--help"]).showsHelp)
    }

    @Test(arguments: [
        ["--port"], ["--port", "http"], ["--port", "70000"], ["--publish", "1300"], ["--publish", "25:00"],
        ["--publish", "13:5"], ["--latency", "-1"], ["--state"], ["--state", "--no-prefs"], ["--turbo"], ["--tls"],
        ["--epoch-ms", "999"], ["--rotation-spread", "20"], ["--rotation-spread", "20h"], ["--rotation-spread", "-1s"],
        ["--epoch-ms", "60000"], ["--epoch-ms", "60000", "--rotation-spread", "1m"], ["--relay-beat"],
        ["--relay-beat", "15"], ["--relay-beat-phase", "soon"],
    ])
    func aFlagItCannotReadIsRefused(arguments: [String]) {
        #expect {
            try DemoBoxOptions.parse(arguments)
        } throws: { error in
            (error as? DemoBoxError)?.code == .badArgument
        }
    }

    /// A relay beat longer than the real relay's would let a room move later than a phone waits for it; with the
    /// spread it must fit in the epoch, or an old room would outlive it. Each is refused in one line saying so.
    @Test(arguments: [
        (
            ["--relay-beat", "20s"],
            "--relay-beat (20000 ms) must be at most the real relay's 15000 ms, the longest a phone waits past a"
                + " room's offset"
        ),
        (
            ["--relay-beat-phase", "20s"],
            "--relay-beat-phase (20000 ms) must be shorter than the beat (15000 ms): a beat falls once in each"
        ),
        (
            ["--epoch-ms", "120000", "--rotation-spread", "110s", "--relay-beat", "10s"],
            "--relay-beat (10000 ms) plus --rotation-spread (110000 ms) must be shorter than the relay's epoch"
                + " (120000 ms), so every old room is moved inside it"
        ),
    ])
    func aRelayBeatTheRelayCouldNotKeepIsRefused(arguments: [String], message: String) {
        #expect {
            try DemoBoxOptions.parse(arguments)
        } throws: { error in
            (error as? DemoBoxError)?.code == .badArgument && (error as? DemoBoxError)?.message == message
        }
    }
}

@Suite struct StateFileTests {
    private static func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("demobox-\(UUID().uuidString)").path
    }

    @Test func theStateRoundTripsThroughItsFolder() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try DemoBoxState.load(folder: folder) == nil)
        let device = EnrolledDevice(appStaticKey: Array(repeating: 9, count: 32), role: "owner", enrolledAtMs: 5)
        let state = DemoBoxState(identity: .generate(), devices: [device])
        try state.save(folder: folder)
        #expect(try DemoBoxState.load(folder: folder) == state)
    }

    @Test func theStateFileIsReadableByItsOwnerOnly() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try DemoBoxState(identity: .generate(), devices: []).save(folder: folder)
        try DemoBoxState(identity: .generate(), devices: []).save(folder: folder)
        let path = URL(fileURLWithPath: folder).appendingPathComponent(DemoBoxState.fileName).path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [DemoBoxState.fileName])
    }

    @Test func theStateFolderIsMadeReadableByItsOwnerOnly() throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/box/state"
        try DemoBoxState(identity: .generate(), devices: []).save(folder: folder)
        for made in [root, root + "/box", folder] {
            let attributes = try FileManager.default.attributesOfItem(atPath: made)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700, "\(made)")
        }
    }

    @Test func aStatePathThatIsAFileIsRefusedInOneLineAndLeftAlone() throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let file = root + "/passwd"
        try Data("root:x:0:0".utf8).write(to: URL(fileURLWithPath: file))
        #expect {
            try DemoBoxState(identity: .generate(), devices: []).save(folder: file)
        } throws: { error in
            (error as? DemoBoxError)?.description
                == "stateFile: \(file) is a file, not a folder: --state needs a folder"
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("root:x:0:0".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["passwd"])
    }

    @Test func aKnownPhoneReconnectsToABoxRestartedWithItsKeysAndDevices() async throws {
        let identity = DemoBoxIdentity.generate()
        let (phoneKey, devices) = try await BoxWorld.run(configuration: Self.configuration(identity, [])) { world in
            let phone = try await world.enrolledPhone()
            return (phone.staticKey, await world.box.enrolledDevices)
        }
        for (kept, connects) in [([EnrolledDevice](), false), (devices, true)] {
            try await BoxWorld.run(configuration: Self.configuration(identity, kept)) { world in
                let phone = try await world.phone(staticKey: phoneKey)
                try await phone.startHandshake(payload: [])
                await world.settle()
                #expect(await phone.isConnected == connects)
            }
        }
    }

    @Test(arguments: ["not json", #"{"identity":{},"devices":[]}"#])
    func aFileThatIsNotAStateIsRefused(text: String) throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent(DemoBoxState.fileName))
        #expect {
            try DemoBoxState.load(folder: folder)
        } throws: { error in
            (error as? DemoBoxError)?.code == .stateFile
        }
    }

    @Test func keysThatDoNotBelongTogetherAreRefused() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var identity = DemoBoxIdentity.generate()
        identity.staticPublicKey = DemoBoxIdentity.generate().staticPublicKey
        try DemoBoxState(identity: identity, devices: []).save(folder: folder)
        #expect {
            try DemoBoxState.load(folder: folder)
        } throws: { error in
            (error as? DemoBoxError)?.code == .badIdentity
        }
    }

    private static func configuration(_ identity: DemoBoxIdentity, _ devices: [EnrolledDevice]) -> DemoBoxConfiguration
    {
        var configuration = DemoBoxConfiguration()
        configuration.identity = identity
        configuration.enrolledDevices = devices
        return configuration
    }
}
