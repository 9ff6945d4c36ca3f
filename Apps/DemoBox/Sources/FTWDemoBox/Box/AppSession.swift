import FTWBoxProtocol
import FTWNoise

/// One phone's Noise session on the uplink and everything the box keeps per session: its stream, its commands,
/// its API slot, its step-up window and its history query.
struct AppSession: Sendable {
    /// Numbered from 1 in handshake order, for the request log.
    let number: Int
    /// The phone's static key: its identity, looked up again on every privileged request.
    let appKey: [UInt8]
    var noise: NoiseSession
    /// The negotiated protocol version; 0 is the frozen floor.
    var proto = 1
    /// Nil until the first `sub`.
    var stream: TelemetryStream?
    var commands = CommandLog()
    /// Whether an `api.req` is being served; the box serves one at a time.
    var isAPIBusy = false
    /// Box uptime until which configure calls pass without `stepUp`.
    var stepUpUntilMs = Int64.min
    var history: HistoryRun?

    /// The lane 0 size: the first `sub`'s choice, 512 before it.
    var controlBucket: Int { stream?.bucket ?? Frame.defaultControlBucket }
}
