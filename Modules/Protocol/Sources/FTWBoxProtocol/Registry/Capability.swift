/// A feature the box advertises in `hello_ok.caps`; presence means supported, absence means the app hides the
/// feature (registry `capabilities`).
public struct Capability: WireName {
    /// The name as it appears on the wire.
    public let rawValue: String

    /// Wraps a name as it appears on the wire.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Live telemetry, the frozen core; the only capability in floor mode.
    public static let statusCore: Capability = "status.core"

    /// Per-phase readings (never advertised by the shipping box).
    public static let statusPhases: Capability = "status.phases"

    /// Driver health (never advertised by the shipping box).
    public static let statusDrivers: Capability = "status.drivers"

    /// Five-minute history tiles.
    public static let history5m: Capability = "history.5m"

    /// Hourly history tiles.
    public static let history1h: Capability = "history.1h"

    /// History tiles carry etags, so cached tiles are not resent.
    public static let historyEtag: Capability = "history.etag"

    /// Commands are acknowledged with a lease.
    public static let cmdLease: Capability = "cmd.lease"

    /// Commands may carry guards checked against fresh state.
    public static let cmdPrecondition: Capability = "cmd.precondition"

    /// Command results come from a read-back, not an echo.
    public static let cmdReadback: Capability = "cmd.readback"

    /// Battery control (never advertised by the shipping box).
    public static let derBattery: Capability = "der.battery"

    /// EV charger control; the box has loadpoints.
    public static let derEV: Capability = "der.ev"

    /// Vehicle-to-everything (never advertised by the shipping box).
    public static let derV2X: Capability = "der.v2x"

    /// The dispatch plan.
    public static let planDispatch: Capability = "plan.dispatch"

    /// A WebRTC carrier (never advertised by the shipping box).
    public static let netWebRTC: Capability = "net.webrtc"

    /// Electricity prices; a zone and a store are configured.
    public static let priceSpot: Capability = "price.spot"

    /// The box's own HTTP API over the session.
    public static let apiPassthrough: Capability = "api.passthrough"

    /// Every capability in the registry, in its order.
    public static let all: [Capability] = [
        .statusCore, .statusPhases, .statusDrivers, .history5m, .history1h, .historyEtag, .cmdLease, .cmdPrecondition,
        .cmdReadback, .derBattery, .derEV, .derV2X, .planDispatch, .netWebRTC, .priceSpot, .apiPassthrough,
    ]
}
