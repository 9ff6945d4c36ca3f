import ClockSeamTesting
import Noise
import Session
import Testing

/// The rendezvous apart from any socket, as a carrier on another transport uses it: the path it would dial, and the
/// corrections it takes from the relay's closes.
@Suite struct RelayRendezvousTests {
    private static let secret = [UInt8](repeating: 0x3C, count: 32)
    /// 2025-12-02 10:00 UTC.
    private static let originMs: Int64 = 1_764_669_600_000

    @Test func aCarrierOfAnotherTransportDialsThePathAndReportsCloses() {
        let clock = ManualClock(originMs: Self.originMs)
        let rendezvous = RelayRendezvous(secret: Self.secret, wallClock: clock)
        let epoch = Rendezvous.epoch(nowMs: Self.originMs)
        #expect(rendezvous.path == "/r/\(epoch)/\(Rendezvous.handle(secret: Self.secret, epoch: epoch))/app")

        rendezvous.noteClose(code: 4409, reason: "epoch \(epoch - 1)")
        #expect(rendezvous.epoch == epoch - 1)
        #expect(rendezvous.path == "/r/\(epoch - 1)/\(Rendezvous.handle(secret: Self.secret, epoch: epoch - 1))/app")

        rendezvous.noteClose(code: 4410, reason: "\(epoch + 7)")
        rendezvous.noteClose(code: 1000, reason: "\(epoch + 1)")
        #expect(rendezvous.epoch == epoch - 1)
    }
}
