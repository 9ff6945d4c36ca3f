import FTWClockSeamTesting
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport

/// The live session's stage: the session world's live session, in-memory dialer and scripted box.
struct LiveContractStage: ContractStage {
    let world: SessionWorld

    var session: any BoxSession { world.session }
    var simulation: Simulation { world.simulation }

    func streamUp() async {
        await world.comeToFront()
    }

    func dialling() async {
        world.dialer.hold(honouringCancellation: true)
        await world.comeToFront()
    }

    func streamComes() async {
        world.dialer.release()
        // Long enough for a redial after a drop (its backoff is at most 1 s on the first attempt).
        await simulation.advance(by: .seconds(2))
    }

    func background() async {
        await world.session.setPhase(.background)
        await simulation.settle()
    }

    func dropCarrier() async {
        await world.box.close()
        await simulation.settle()
    }

    func holdAnswers() async {
        await world.box.configure { $0.holding = true }
    }

    func releaseAnswers() async {
        await world.box.configure { $0.holding = false }
        await world.box.answerHeld()
        await settle()
    }

    func sent() async -> [ReadRequest] {
        await world.box.requests.compactMap(\.read)
    }
}
