import FTWBus
import FTWCache
public import FTWClient
public import FTWSealInterface
import FTWSessionInterface
public import Foundation

/// One launch of the client in this process, on the wall clock against a box behind a relay, timed stage by stage
/// from a moment the caller names (for a cold launch: when its process was started).
///
/// It does what the phone does when a person taps the icon: build every model, draw what the sealed files hold,
/// become active and show the home screen and the battery, and wait for the first live reading. A kill ends it:
/// nothing is written afterwards, so the next launch finds the folder as this one did.
public struct LaunchProbe: Sendable {
    /// The phone's data folder: its key and its sealed files.
    public var dataFolder: DataFolder
    /// The paired site to open, through the relay it was paired through.
    public var site: SiteID
    /// How long to wait for the first live reading before giving up.
    public var patience: Duration

    /// Makes a probe.
    public init(dataFolder: DataFolder, site: SiteID, patience: Duration = .seconds(10)) {
        self.dataFolder = dataFolder
        self.site = site
        self.patience = patience
    }

    /// Launches, waits for the first live reading and returns the stages' times in milliseconds since `origin`.
    ///
    /// - Throws: `LaunchClockError` when the site is not paired in the folder or nothing live arrives in time.
    public func launch(since origin: Date, mainAt main: Date) async throws -> LaunchTimes {
        let client = try await makeClient()
        let built = Date()
        let drawn = await client.launch()
        let content = Date()
        let contentCPU = ProcessorTime.atFirstContent()
        let live = try await untilLive(client)
        return LaunchTimes(
            mainMs: Self.ms(origin, main),
            builtMs: Self.ms(origin, built),
            contentMs: Self.ms(origin, content),
            contentCPUMs: contentCPU,
            liveMs: Self.ms(origin, live),
            drawn: drawn
        )
    }

    /// A client for the site, composed as the phone composes it, on the real clocks.
    func makeClient() async throws -> HeadlessClient {
        let store = try dataFolder.open()
        guard let paired = await PairedSite.read(site: site, from: store) else {
            throw LaunchClockError("site \(site) is not paired in \(dataFolder.url.path)")
        }
        return try HeadlessClient.onWallClock(paired: paired, store: store, policy: .ageKeyed)
    }

    /// Runs `client` in the foreground on the home screen and the battery until the first live reading.
    private func untilLive(_ client: HeadlessClient) async throws -> Date {
        try await inForeground(client) { events in
            for await event in events {
                if case .telemetry = event { return Date() }
            }
            throw LaunchClockError("the session ended before a live reading")
        }
    }

    /// Runs `client`, brings it to the front showing the home screen and the battery, and returns what `body`
    /// returns, cancelling everything after it (a kill) or after the probe's patience.
    func inForeground<T: Sendable>(
        _ client: HeadlessClient,
        _ body: @escaping @Sendable (BusStream<SessionEvent>) async throws -> T
    ) async throws -> T {
        let events = client.sessionEvents.subscribe()
        let patience = patience
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await client.run()
                return nil
            }
            group.addTask {
                try await Task.sleep(for: patience)
                throw LaunchClockError("nothing live within \(patience)")
            }
            group.addTask { try await body(events) }
            try await client.setPhase(.inactive)
            try await client.setPhase(.active)
            client.show(.now)
            client.show(.battery)
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let result { return result }
            }
            throw LaunchClockError("the client stopped before a live reading")
        }
    }

    private static func ms(_ origin: Date, _ moment: Date) -> Double {
        moment.timeIntervalSince(origin) * 1000
    }
}
