public import FTWBoxProtocol

/// A box's hello answer for tests: a full-mode owner session on a box in the given time zone.
public enum SampleHello {
    /// A `hello_ok` with every capability the shipping box advertises.
    public static func make(timeZone: String = "Europe/Stockholm", uptimeMs: Int64 = 1_000) -> HelloOK {
        HelloOK(
            proto: 1,
            mode: "full",
            box: BoxInfo(id: "demo", build: "test", tz: timeZone),
            clock: ClockInfo(syncedAtMs: 0, uptimeMs: uptimeMs),
            caps: [
                "status.core", "cmd.lease", "cmd.precondition", "cmd.readback", "plan.dispatch", "history.5m",
                "history.1h", "history.etag", "der.ev", "price.spot", "api.passthrough",
            ],
            capsHash: "0000000000000000",
            modes: [],
            role: "owner",
            scopes: ["ftw.live.read"],
            subscribed: true
        )
    }
}
