package import FTWClockSeam
package import FTWSessionInterface

/// A model that asks the box through an `AskLoop`: `LiveAsk` and the history. The loop is written here once:
/// weigh what happened, ask while the rule says so, weigh the outcome after every input queued so far, and let the
/// model tell and keep what changed; a pull joins the ask out when it wants the same name. The model states only how
/// it asks, names, records and seals.
///
/// ## Concurrency
/// An actor: the loop runs on the model's own executor, in its service loop, one input at a time.
package protocol AskLoopModel: Actor {
    /// The model's own inputs, queued with the session's events.
    associatedtype LoopInput: Sendable
    /// What a failed ask throws.
    associatedtype AskError: Error

    /// The loop's state.
    var loop: AskLoop { get set }
    /// The model's inputs in the order they were queued.
    var askInbox: AskInbox<LoopInput> { get }
    /// Now, for names and ages.
    var wallClock: any WallClock { get }

    /// What the model wants now; `byPerson` for a pull to refresh.
    func wanted(nowMs: Int64, byPerson: Bool) -> AskName?
    /// Asks the box under `name` and records the answer if one came; says how the ask settled.
    func ask(_ name: AskName, byPerson: Bool) async -> AskLoop.Outcome<AskError>
    /// Tells and keeps what the settled ask under `name` changed, once the rule weighed it.
    func told(_ outcome: AskLoop.Outcome<AskError>, name: AskName) async
    /// Seals the refusal the rule remembers (or forgot).
    func sealVerdict() async
    /// Keeps the answer pushed unasked under `name`, and seals it.
    func keep(under name: AskName) async
}

extension AskLoopModel {
    /// Hands the rule what happened and does what it says, until it says nothing more.
    package func decide(_ input: AskInput, at place: Int) async {
        var action = weigh(input, at: place)
        while true {
            switch action {
            case .none:
                return
            case .sealVerdict:
                await sealVerdict()
                return
            case .keep(let name):
                await keep(under: name)
                return
            case .ask(let name, let byPerson):
                loop.send(name, byPerson: byPerson)
                let outcome = await ask(name, byPerson: byPerson)
                // The name may have turned while the ask was on the wire, and every input queued so far came before
                // the outcome: weighed by what is held now.
                let nowMs = wallClock.nowMs
                action = loop.settle(outcome, at: askInbox.lastQueued, nowMs: nowMs) {
                    wanted(nowMs: nowMs, byPerson: false)
                }
                await told(outcome, name: name)
            }
        }
    }

    /// Hands the rule a session event, when it is one the rule takes.
    package func decide(_ event: SessionEvent, at place: Int) async {
        if let input = AskInput(event) { await decide(input, at: place) }
    }

    /// Sets which live frames reach the loop, after an input was handled.
    package func settleBeat() {
        loop.setBeat(nowMs: wallClock.nowMs)
    }

    /// Whether the pull at `place`, wanting `wanted`, joins the ask out: it wants the name that ask is asked under
    /// and the loop has not reached the pull. The rest of the ask then goes as a person's, and the loop passes over
    /// the pull.
    package func joinsAsk(pullAt place: Int, wanting wanted: AskName?) -> Bool {
        guard let asking = loop.asking, wanted == asking.name, askInbox.join(place) else { return false }
        loop.joinedByPerson()
        return true
    }

    /// Tells the rule what the sealed file held: the answer's name and age, and the build that refused.
    package func restoreDecision(_ held: AskDecision.Held?, lackingOnBuild: String?) {
        _ = loop.weigh(.restored(held, lackingOnBuild: lackingOnBuild), at: askInbox.lastQueued, nowMs: wallClock.nowMs)
        {
            nil
        }
    }

    /// The rule's answer to `input`, queued at `place`, naming what the model wants now only if it asks.
    private func weigh(_ input: AskInput, at place: Int) -> AskAction {
        let nowMs = wallClock.nowMs
        return loop.weigh(input, at: place, nowMs: nowMs) {
            wanted(nowMs: nowMs, byPerson: input == .refresh)
        }
    }
}
