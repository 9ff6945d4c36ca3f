/// The ask loop's state, once for every model that asks the box: the rule (``AskDecision``), the ask out now (what a
/// pull may join) and which live frames the loop needs (``BeatGate``). Its transitions are pure and synchronous; the
/// model's actor owns the value and `AskLoopModel` drives it, so `LiveAsk` and the history run the same loop.
package struct AskLoop: Sendable {
    /// The ask on the wire.
    package struct Asking: Sendable, Hashable {
        /// The name it is asked under.
        package var name: AskName
        /// Whether it goes as a person's (a pull, or one a pull joined): first in the read order.
        package var byPerson: Bool
    }

    /// How an ask settled, as the model tells its loop.
    package enum Outcome<Failure: Error> {
        /// The answer was recorded; it was asked at this time (wall clock, Unix ms).
        case answered(askedAtMs: Int64)
        /// Nothing was recorded; the error is the one the ask threw.
        case failed(Failure)
    }

    /// Who is looking, whether the answer stands, the failure and refusal memory, the stream: the rule's state.
    package private(set) var decision: AskDecision
    /// The ask out now, if any.
    package private(set) var asking: Asking?
    /// Which live frames reach the model's loop: those after the name can have turned, while someone looks.
    package let beat = BeatGate()
    /// When the model's name can change with the clock alone.
    private let turns: NameTurns
    /// Whether live frames carry the stream to the model (the history primes on the first one).
    private let followsStream: Bool

    /// A loop under `configuration` whose name turns as `turns` says; `followsStream` when live frames tell the model
    /// the stream runs.
    package init(_ configuration: AskDecision.Configuration, turns: NameTurns, followsStream: Bool) {
        decision = AskDecision(configuration)
        self.turns = turns
        self.followsStream = followsStream
    }

    /// The rule's answer to `input`, queued at `place`; `wanted` names what the model wants now.
    package mutating func weigh(
        _ input: AskInput,
        at place: Int,
        nowMs: Int64,
        wanted: () -> AskName?
    ) -> AskAction {
        decision.handle(input, at: place, nowMs: nowMs, name: wanted)
    }

    /// The ask under `name` goes out.
    package mutating func send(_ name: AskName, byPerson: Bool) {
        asking = Asking(name: name, byPerson: byPerson)
    }

    /// A pull joined the ask out: the rest of it goes as a person's.
    package mutating func joinedByPerson() {
        asking?.byPerson = true
    }

    /// The ask out settled as `outcome`, learned after every input up to `place`: none of them is a new look after a
    /// failure. Returns what the rule says next.
    package mutating func settle<Failure: Error>(
        _ outcome: Outcome<Failure>,
        at place: Int,
        nowMs: Int64,
        wanted: () -> AskName?
    ) -> AskAction {
        asking = nil
        let input: AskInput =
            switch outcome {
            case .answered(let askedAtMs): .answered(askedAtMs: askedAtMs)
            case .failed(let error): .failed(AskFailure.Verdict(error))
            }
        return weigh(input, at: place, nowMs: nowMs, wanted: wanted)
    }

    /// Sets which live frames reach the loop after an input it handled at `nowMs`.
    package func setBeat(nowMs: Int64) {
        beat.set(
            dueMs: decision.nextBeatMs(after: nowMs, turns: turns),
            follows: followsStream,
            knownConnection: decision.streamConnection
        )
    }
}
