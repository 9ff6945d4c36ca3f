import FTWDemoBox
import FTWNoise

/// The demo box's relay for the wall-clock tests that are not about the hour's turn: its hour turns as production's
/// does, but with every old room moved the moment the hour begins (a spread of 0, and no heartbeat to wait for), so a
/// run that happens to cross the top of an hour waits the box's 2.5 s rejoin for it, not up to five minutes and a
/// beat. The phones keep production's schedule: they wait in the room for a box due later and go live on its
/// `ready`. `HourTurnProcessTests` and `HourTurnTests` test the spread and the beat themselves.
enum WallClockRelay {
    /// Production's hour, turned at once.
    static let schedule = RelaySchedule(epochMs: RelaySchedule.production.epochMs, rotationSpreadMs: 0)

    /// A default box configuration on that schedule.
    static var configuration: DemoBoxConfiguration {
        var configuration = DemoBoxConfiguration()
        configuration.relaySchedule = schedule ?? .production
        configuration.relayBeat = .none
        return configuration
    }

    /// The `ftw-demobox` options for it.
    static let options = ["--rotation-spread", "0ms", "--relay-beat", "0ms"]
}
