import FTWClockSeamTesting
import FTWSessionInterface
import FTWSessionTestSupport

/// The double's stage: a scripted session answering as the live stage's box does.
struct ScriptedContractStage: ContractStage {
    let simulation: Simulation
    let scripted: ScriptedSession

    init(simulation: Simulation) {
        self.simulation = simulation
        scripted = ScriptedSession(wallClock: simulation.clock)
    }

    var session: any BoxSession { scripted }

    func streamUp() async {
        await scripted.connect(hello: SampleHello.make())
        await simulation.settle()
    }

    func dialling() async {
        await scripted.comeToFront()
    }

    func streamComes() async {
        await streamUp()
    }

    func background() async {
        await scripted.background()
        await simulation.settle()
    }

    func dropCarrier() async {
        await scripted.drop()
        await simulation.settle()
    }

    func holdAnswers() async {
        await scripted.hold()
    }

    func releaseAnswers() async {
        await scripted.release()
        await simulation.settle()
    }

    func sent() async -> [ReadRequest] {
        await scripted.sent.map(\.request)
    }
}
