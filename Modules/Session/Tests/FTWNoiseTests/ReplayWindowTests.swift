import FTWNoise
import FTWTestingTraits
import Testing

/// The replay window on its own: 64 wide, newest-relative, and equal to a plain set-based model under random input.
@Suite struct ReplayWindowTests {
    @Test(arguments: [0, 1, 1_000, UInt64.max - 1] as [UInt64])
    func anyFirstSequenceNumberIsAccepted(first: UInt64) {
        var window = ReplayWindow()
        let accepted = window.accept(first)
        let acceptedAgain = window.accept(first)
        #expect(accepted)
        #expect(!acceptedAgain)
        #expect(window.newest == first)
    }

    @Test func theWindowRemembers64NumbersCountingTheNewest() {
        var window = ReplayWindow()
        _ = window.accept(100)
        #expect(!window.isFresh(36))
        #expect(window.isFresh(37))
        let accepted = window.accept(37)
        #expect(accepted)
        #expect(!window.isFresh(37))
        #expect(window.newest == 100)
    }

    @Test func aRefusedNumberChangesNothing() {
        var window = ReplayWindow()
        _ = window.accept(100)
        _ = window.accept(99)
        let before = window
        let duplicate = window.accept(99)
        let tooOld = window.accept(10)
        #expect(!duplicate)
        #expect(!tooOld)
        #expect(window == before)
    }

    @Test(arguments: [1, 61, 62, 63, 64, 65, 1_000] as [UInt64])
    func aJumpForwardKeepsOnlyWhatIsStillInsideTheWindow(jump: UInt64) {
        var window = ReplayWindow()
        _ = window.accept(1_000)
        _ = window.accept(999)
        _ = window.accept(1_000 + jump)
        #expect(window.newest == 1_000 + jump)
        #expect(!window.isFresh(999))
        #expect(!window.isFresh(1_000))
        #expect(window.isFresh(998) == (jump + 2 < ReplayWindow.width))
    }

    @Test(.ownThread, arguments: [1, 2, 7] as [UInt64])
    func agreesWithASetBasedModelOnRandomInput(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var window = ReplayWindow()
        var model = WindowModel()
        for _ in 0..<20_000 {
            let step = UInt64.random(in: 0..<80, using: &generator)
            // Mostly near the newest, behind or just ahead; now and then a jump past the whole window.
            let sequence = model.newest.map { step == 79 ? $0 + 100 : $0 + step - 70 } ?? 1_000
            let expected = model.accept(sequence)
            let accepted = window.accept(sequence)
            #expect(accepted == expected, "sequence \(sequence)")
            #expect(window.newest == model.newest)
        }
    }
}

/// The window's rule written the slow, obvious way.
private struct WindowModel {
    private(set) var newest: UInt64?
    private var seen: Set<UInt64> = []

    mutating func accept(_ sequence: UInt64) -> Bool {
        if let newest, sequence <= newest, newest - sequence >= 64 || seen.contains(sequence) {
            return false
        }
        seen.insert(sequence)
        newest = max(newest ?? sequence, sequence)
        return true
    }
}

/// A seeded generator, so a failing random run can be replayed.
private struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var value = state
        value = (value ^ (value >> 30)) &* 0xbf58_476d_1ce4_e5b9
        value = (value ^ (value >> 27)) &* 0x94d0_49bb_1331_11eb
        return value ^ (value >> 31)
    }
}
