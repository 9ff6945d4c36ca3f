import FTWBoxProtocol
import FTWCrypto
import FTWDemoBox
import FTWFixtures
import FTWSessionInterface
import Foundation
import Testing

@Suite struct EnrolmentTests {
    @Test func aPairingCodeOpensASessionAndHelloBringsHelloOKThenTheSnapshot() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.enrolledPhone()
            #expect(await phone.isConnected)
            try await phone.send(Samples.hello())
            await world.settle()
            let received = await phone.received
            #expect(received.map(\.type) == ["hello_ok", "snap"])
            guard case .helloOK(let answer)? = received.first?.message else {
                Issue.record("no hello_ok")
                return
            }
            #expect(answer.proto == 1)
            #expect(answer.mode == "full")
            #expect(answer.role == .owner)
            #expect(answer.scopes == Scope.all)
            #expect(answer.subscribed)
            #expect(answer.caps.contains(.priceSpot))
            #expect(!answer.caps.contains(.derBattery) && !answer.caps.contains(.statusDrivers))
            #expect(answer.modes.map(\.key) == ModeKey.all.map(\.rawValue))
            #expect(answer.clock.uptimeMs == DemoBoxConfiguration().uptimeAtStartMs)
            #expect(answer.clock.source == "ntp" && answer.clock.syncedAtMs == 0)
            #expect(received.map(\.frame.lane) == [.bulk, .bulk])
        }
    }

    @Test func theCapsHashIsSHA256OverTheSortedCapsEachEndedByAZeroByte() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.enrolledPhone()
            try await phone.send(Samples.hello())
            await world.settle()
            guard case .helloOK(let answer)? = await phone.received.first?.message else {
                Issue.record("no hello_ok")
                return
            }
            let bytes = answer.caps.map(\.rawValue).sorted().flatMap { name -> [UInt8] in Array(name.utf8) + [0] }
            #expect(answer.capsHash == String(Vectors.hex(SHA256.hash(bytes)).prefix(16)))
        }
    }

    @Test func aKnownPhoneReconnectsWithAnEmptyPayload() async throws {
        try await BoxWorld.run { world in
            let first = try await world.enrolledPhone()
            let again = try await world.phone(staticKey: first.staticKey)
            try await again.startHandshake(payload: [])
            await world.settle()
            #expect(await again.isConnected)
            try await again.send(Samples.hello(sub: nil))
            await world.settle()
            #expect(await again.received.map(\.type) == ["hello_ok"])
        }
    }

    @Test func aRefusedHandshakeGetsSilence() async throws {
        try await BoxWorld.run { world in
            let stranger = try await world.phone()
            try await stranger.startHandshake(payload: [])
            await world.advance(by: .seconds(5))
            #expect(await stranger.binaryCount == 0)
            #expect(await !stranger.isConnected)
        }
    }

    @Test func aSpokenBoxCodeIsRefusedOverTheRelay() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.phone()
            try await phone.startHandshake(payload: Array("7K3MQ".utf8))
            await world.settle()
            #expect(await phone.binaryCount == 0)
        }
    }

    @Test func aPairingCodeIsSpentByTheFirstPhoneThatUsesIt() async throws {
        try await BoxWorld.run { world in
            let code = await world.box.mintPairingCode()
            let first = try await world.phone()
            try await first.startHandshake(payload: code)
            let second = try await world.phone()
            try await second.startHandshake(payload: code)
            await world.settle()
            #expect(await first.isConnected)
            #expect(await !second.isConnected)
            #expect(await world.box.enrolledDevices.map(\.appStaticKey) == [first.publicKey])
        }
    }

    @Test func aPairingCodeLivesTenMinutes() async throws {
        try await BoxWorld.run { world in
            let kept = await world.box.mintPairingCode()
            let lapsed = await world.box.mintPairingCode()
            await world.advance(by: .seconds(599))
            let early = try await world.phone()
            try await early.startHandshake(payload: kept)
            await world.advance(by: .seconds(1))
            let late = try await world.phone()
            try await late.startHandshake(payload: lapsed)
            await world.settle()
            #expect(await early.isConnected)
            #expect(await !late.isConnected)
        }
    }

    @Test(arguments: [4, 5])
    func wrongGuessesBurnTheCodeAtFive(wrong: Int) async throws {
        try await BoxWorld.run { world in
            let code = await world.box.mintPairingCode()
            let phone = try await world.phone()
            for guess in 0..<wrong {
                try await phone.startHandshake(payload: [UInt8](repeating: UInt8(guess), count: 16))
                await world.settle()
            }
            try await phone.startHandshake(payload: code)
            await world.settle()
            #expect(await phone.isConnected == (wrong < 5))
        }
    }

    /// A burnt code's link can enrol no one, so the box says so at once (ftw-demobox prints a fresh link on it).
    // A box that never announces would leave the wait below waiting: the limit ends it as a failure.
    @Test(.timeLimit(.minutes(1)), arguments: [4, 5])
    func aCodeBurntByWrongGuessesIsAnnouncedAtOnce(wrong: Int) async throws {
        try await BoxWorld.run { world in
            let burns = await world.box.burntCodes()
            _ = await world.box.mintPairingCode()
            let phone = try await world.phone()
            for guess in 0..<wrong {
                try await phone.startHandshake(payload: [UInt8](repeating: UInt8(guess), count: 16))
                await world.settle()
            }
            #expect(await world.box.burntCodeCount == (wrong < 5 ? 0 : 1))
            // Already yielded when the code burnt, so this waits for nothing.
            if wrong == 5 {
                var announced = burns.makeAsyncIterator()
                #expect(await announced.next() == 1)
            }
        }
    }

    @Test func theFirstPhoneIsAnOwnerWhateverItsCodeSaid() async throws {
        try await BoxWorld.run { world in
            let first = try await world.streamingPhone(role: "viewer")
            let second = try await world.enrolledPhone(role: "viewer")
            try await second.send(Samples.hello(sub: nil))
            await world.settle()
            #expect(await world.box.enrolledDevices.map(\.role) == ["owner", "viewer"])
            guard case .helloOK(let answer)? = await second.received.first?.message else {
                Issue.record("no hello_ok")
                return
            }
            #expect(answer.role == .viewer && answer.mode == "readonly" && answer.scopes == [.liveRead])
            #expect(await first.isConnected)
        }
    }

    @Test func aDeviceIsNamedByTheFirstEightCharactersOfItsKeyInBase64URL() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.enrolledPhone()
            let device = try #require(await world.box.enrolledDevices.first)
            let expected = Data(phone.publicKey).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_")
            #expect(device.deviceId == String(expected.prefix(8)))
        }
    }

    @Test func theEnrolmentLinkMatchesThePhoneAppsVector() throws {
        let vector = try #require(try Vectors.json("identity-vectors.json")["enrollment"] as? [String: Any])
        let handshake = try #require(try Vectors.json("webapp-vectors.json")["handshake"] as? [String: Any])
        let identity = try DemoBoxIdentity(
            staticPrivateKey: try #require(Vectors.bytes(hex: handshake["responderStatic"] as? String ?? "")),
            rendezvousSecret: try #require(Vectors.bytes(hex: vector["rendezvousSecret"] as? String ?? ""))
        )
        #expect(Vectors.hex(identity.staticPublicKey) == vector["boxNoisePublic"] as? String)
        let code = try #require(Vectors.bytes(hex: vector["pairingCode"] as? String ?? ""))
        let url = identity.enrolmentURL(pairingCode: code, lanHint: vector["lanHint"] as? String ?? "")
        #expect(url == vector["url"] as? String)
        let device = EnrolledDevice(appStaticKey: identity.staticPublicKey, role: "owner", enrolledAtMs: 0)
        #expect(device.deviceId == vector["deviceIdOnBox"] as? String)
    }

    @Test func theBoxsOwnLinkCarriesACodeThatEnrols() async throws {
        try await BoxWorld.run { world in
            let url = await world.box.enrolmentURL(lanHint: "127.0.0.1:8787")
            let segments = try #require(url.split(separator: "#").last).split(separator: ".")
            #expect(segments.count == 5 && segments[0] == "v2")
            let code = try #require(Self.bytes(base64URL: String(segments[2])))
            #expect(Self.bytes(base64URL: String(segments[1])) == world.box.boxStaticPublicKey)
            #expect(Self.bytes(base64URL: String(segments[3])) == Array("127.0.0.1:8787".utf8))
            #expect(Self.bytes(base64URL: String(segments[4])) == (await world.box.rendezvousSecret))
            let phone = try await world.phone()
            try await phone.startHandshake(payload: code)
            await world.settle()
            #expect(await phone.isConnected)
        }
    }

    @Test func aFifthSessionEvictsTheOldest() async throws {
        try await BoxWorld.run { world in
            var phones: [TestPhone] = []
            for _ in 0..<4 { phones.append(try await world.enrolledPhone()) }
            await phones[3].carrier.close()
            let fifth = try await world.enrolledPhone()
            for phone in [phones[0], phones[1], fifth] { try await phone.send(Samples.hello(sub: nil)) }
            await world.settle()
            #expect(await phones[0].received.isEmpty)
            #expect(await phones[1].received.map(\.type) == ["hello_ok"])
            #expect(await fifth.received.map(\.type) == ["hello_ok"])
        }
    }

    @Test func aStoredIdentityWhoseKeysDisagreeIsRefused() throws {
        let identity = DemoBoxIdentity.generate()
        #expect(throws: DemoBoxError.self) {
            try DemoBoxIdentity(staticPrivateKey: [1, 2, 3], rendezvousSecret: identity.rendezvousSecret)
        }
        #expect(throws: DemoBoxError.self) {
            try DemoBoxIdentity(staticPrivateKey: identity.staticPrivateKey, rendezvousSecret: [0])
        }
    }

    static func bytes(base64URL text: String) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}
