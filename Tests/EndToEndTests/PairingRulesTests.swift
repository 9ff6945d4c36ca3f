import FTWBoxProtocol
import FTWClient
import FTWClockSeam
import FTWClockSeamTesting
import FTWDemoBox
import FTWHeadlessTooling
import FTWSeal
import FTWSealInterface
import Foundation
import Testing

/// The pairing code's rules as the phone meets them (§8.2): the box refuses in silence, and the phone says why,
/// keeps its key and the pending site, and never spends a code it could not keep a record of.
@Suite struct PairingRulesTests {
    @Test func aPairingSealsTheSiteWithTheGrantedRoleAndNoCode() async throws {
        try await PhoneWorld.run { world in
            let link = try await world.link()
            let site = try await world.pair(link).get()
            #expect(site.site == link.site)
            #expect(site.role == "owner")
            #expect(!site.scopes.isEmpty)
            #expect(site.pairingCode.isEmpty)
            #expect(site.relay == "ws://127.0.0.1:8787")
            #expect(await PairedSite.all(in: world.folder.unlockedStore()) == [site])
            let device = try #require(DeviceID(privateKey: site.devicePrivateKey))
            #expect(await world.box.enrolledDevices.map(\.deviceId) == [device.rawValue])
        }
    }

    @Test func aSecondUseOfAPairingCodeIsRefused() async throws {
        try await PhoneWorld.run { world in
            let link = try await world.link()
            _ = try await world.pair(link).get()
            let otherPhone = world.otherPhone()
            defer { try? FileManager.default.removeItem(at: otherPhone.folder.url) }
            let error = try await #require(throws: EnrolmentError.self) { try await otherPhone.pair(link).get() }
            #expect(error.code == .refused)
            #expect(error.message.contains("single use"))
            let kept = await PairedSite.all(in: otherPhone.folder.unlockedStore())
            #expect(kept.map(\.isPending) == [true])
            #expect(await world.box.enrolledDevices.count == 1)
        }
    }

    @Test func pairingABoxThatKnowsThePhoneAgainGreetsItAndLeavesTheCodeUnspent() async throws {
        try await PhoneWorld.run { world in
            let first = try await world.pair(try await world.link()).get()
            let fresh = try await world.link()
            let again = try await world.pair(fresh).get()
            #expect(again.devicePrivateKey == first.devicePrivateKey)
            #expect(again.role == "owner")
            let otherPhone = world.otherPhone()
            defer { try? FileManager.default.removeItem(at: otherPhone.folder.url) }
            _ = try await otherPhone.pair(fresh).get()
            #expect(await world.box.enrolledDevices.count == 2, "the fresh code was still good for another phone")
        }
    }

    @Test(arguments: [4, 5])
    func theRightCodeAfterWrongGuessesPairsOnlyWhileUnderFive(wrong: Int) async throws {
        try await PhoneWorld.run { world in
            let link = try await world.link()
            var guess = link
            for number in 1...wrong {
                guess.pairingCode = [UInt8](repeating: UInt8(number), count: 16)
                let error = try await #require(throws: EnrolmentError.self) { try await world.pair(guess).get() }
                #expect(error.code == .refused)
            }
            let outcome = await world.pair(link)
            if wrong < 5 {
                #expect(try outcome.get().role == "owner")
            } else {
                let error = try #require(throws: EnrolmentError.self) { try outcome.get() }
                #expect(error.code == .refused)
                #expect(await PairedSite.all(in: world.folder.unlockedStore()).map(\.isPending) == [true])
            }
        }
    }

    @Test func aCodeTenMinutesOldIsRefused() async throws {
        try await PhoneWorld.run { world in
            let link = try await world.link()
            await world.simulation.advance(by: .seconds(600))
            let error = try await #require(throws: EnrolmentError.self) { try await world.pair(link).get() }
            #expect(error.code == .refused)
        }
    }

    @Test func theFirstPhoneIsAnOwnerEvenWithAViewerCodeAndTheNextIsAViewer() async throws {
        try await PhoneWorld.run { world in
            let box = world.box
            var link = try await world.link()
            link.pairingCode = await box.mintPairingCode(role: "viewer")
            #expect(try await world.pair(link).get().role == "owner")
            link.pairingCode = await box.mintPairingCode(role: "viewer")
            let otherPhone = world.otherPhone()
            defer { try? FileManager.default.removeItem(at: otherPhone.folder.url) }
            #expect(try await otherPhone.pair(link).get().role == "viewer")
        }
    }

    /// Found with the interrupted pairing: two seconds each way outlast the three-second handshake, and the
    /// silence was read as a refused code although the box had enrolled the phone. The phone greets it as a known
    /// device instead, and the pairing finishes in one go.
    @Test func anAnswerLostOnASlowRelayIsNoRefusalAndThePairingFinishesAsAKnownDevice() async throws {
        try await PhoneWorld.run { world in
            let link = try await world.link()
            await world.box.setRelayLatency(.seconds(2))
            let site = try await world.pair(link).get()
            #expect(site.role == "owner")
            #expect(site.pairingCode.isEmpty)
            let device = try #require(DeviceID(privateKey: site.devicePrivateKey))
            #expect(await world.box.enrolledDevices.map(\.deviceId) == [device.rawValue])
        }
    }

    /// The phone stranded for good: the carrier cut at 0.7 s, after the box took message 1 with the code at
    /// 0.6 s and before message 2 arrived; every later try offered the spent code and was refused.
    @Test func aPairingCutAfterTheBoxTookTheCodeFinishesAsAKnownDevice() async throws {
        try await PhoneWorld.run { world in
            let link = try await world.link()
            await world.box.setRelayLatency(.milliseconds(300))
            let site = try await world.pair(link, cut: .milliseconds(700)).get()
            #expect(site.role == "owner")
            #expect(await world.box.enrolledDevices.count == 1)
        }
    }

    /// Every offer of a spent code is a wrong guess against each of the box's live codes: the interrupted pairing
    /// must not have made one. Another code takes four wrong guesses after it and still enrols a phone.
    @Test func anInterruptedPairingCostsTheBoxsOtherCodesNoWrongGuess() async throws {
        try await PhoneWorld.run { world in
            let link = try await world.link()
            var other = link
            other.pairingCode = await world.box.mintPairingCode()
            await world.box.setRelayLatency(.milliseconds(300))
            _ = try await world.pair(link, cut: .milliseconds(700)).get()
            await world.box.setRelayLatency(.zero)
            let guesser = world.otherPhone()
            defer { try? FileManager.default.removeItem(at: guesser.folder.url) }
            for number in 1...4 {
                var guess = other
                guess.pairingCode = [UInt8](repeating: UInt8(number), count: 16)
                let error = try await #require(throws: EnrolmentError.self) { try await guesser.pair(guess).get() }
                #expect(error.code == .refused)
            }
            let late = world.otherPhone()
            defer { try? FileManager.default.removeItem(at: late.folder.url) }
            _ = try await late.pair(other).get()
            #expect(await world.box.burntCodeCount == 0)
        }
    }

    /// The slow link, 6.5 s each way: "it no longer knows this phone", of a box that knew it.
    @Test func aGreetingOverALinkTooSlowForItsDeadlineSaysNoAnswerInTimeAndGoesThroughOnceTheLinkIsFaster()
        async throws
    {
        try await PhoneWorld.run { world in
            let site = try await world.pair(try await world.link()).get()
            await world.box.setRelayLatency(.milliseconds(6_500))
            let error = try await #require(throws: EnrolmentError.self) { try await world.greet(site).get() }
            #expect(error.code == .noAnswer)
            #expect(error.message.contains("no answer in time"), "\(error.message)")
            #expect(!error.message.contains("no longer knows"))
            await world.box.setRelayLatency(.milliseconds(300))
            #expect(try await world.greet(site).get().role == .owner)
        }
    }

    @Test func aPhoneThatCannotKeepItsRecordSendsNoCode() async throws {
        try await PhoneWorld.run { world in
            let link = try await world.link()
            try FileManager.default.createDirectory(at: world.folder.url, withIntermediateDirectories: true)
            try Data("not a folder".utf8).write(to: world.folder.sealedFolder)
            let error = try await #require(throws: EnrolmentError.self) { try await world.pair(link).get() }
            #expect(error.code == .notKept)
            #expect(error.message.contains("the pairing code was not sent"))
            #expect(await world.box.enrolledDevices.isEmpty)

            try FileManager.default.removeItem(at: world.folder.sealedFolder)
            #expect(try await world.pair(link).get().role == "owner")
        }
    }

    @Test func aSitePairedFromItsLinkIsReachedThroughTheProductionRelayNotItsLANHint() async throws {
        try await PhoneWorld.run { world in
            let link = try await world.link()
            let site = try await world.pair(link, relay: nil).get()
            #expect(site.relay == "wss://relay.ftw.energy:443")
            #expect(try RelayAddress(parsing: site.relay ?? "") == .production)
            #expect(link.lanHint == "127.0.0.1:8787", "the LAN hint is not where the phone dials")
        }
    }
}
