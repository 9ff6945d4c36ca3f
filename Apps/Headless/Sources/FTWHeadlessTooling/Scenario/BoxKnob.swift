public import FTWDemoBox
import Foundation

/// A change to the demo box during a scenario: what a tester turns to see the client cope.
public enum BoxKnob: Sendable, Hashable, CustomStringConvertible {
    /// Tomorrow's prices are (or stop being) late: not published today.
    case pricesLate(Bool)
    /// Tomorrow's prices appear at this local time of day, in minutes after midnight.
    case publishAt(minutes: Int)
    /// A device stops (or starts again) answering.
    case deviceQuiet(source: String, Bool)
    /// The box's stream stays open and sends no beat, for this long or (nil) until `box silent off`.
    case silent(Duration?)
    /// The box's stream beats again.
    case silentOff
    /// Every carrier drops now, mid-request or not.
    case cutCarriers
    /// The relay adds this latency in each direction.
    case relayLatency(Duration)
    /// The box restarts: uptime goes back near zero.
    case reboot
    /// The box is updated to this build and restarts: its next `hello_ok` names the new build.
    case update(build: String)
    /// One read fails, once or until lifted, instead of the whole relay slowing down.
    case failRead(ReadFault)
    /// A read's fault is lifted.
    case stopFailing(BoxRead)

    /// The knob as a scenario writes it after `box`.
    public var description: String {
        switch self {
        case .pricesLate(let late): "prices-late \(late ? "on" : "off")"
        case .publishAt(let minutes): "publish \(String(format: "%02d:%02d", minutes / 60, minutes % 60))"
        case .deviceQuiet(let source, let quiet): "quiet \(source) \(quiet ? "on" : "off")"
        case .silent(let duration): "silent" + (duration.map { " \(ScenarioStep.written($0))" } ?? "")
        case .silentOff: "silent off"
        case .cutCarriers: "cut"
        case .relayLatency(let latency): "latency \(ScenarioStep.written(latency))"
        case .reboot: "reboot"
        case .update(let build): "update \(build)"
        case .failRead(let fault):
            "fail \(fault.read.rawValue) \(fault.kind.rawValue) \(fault.always ? "always" : "once")"
        case .stopFailing(let read): "fail \(read.rawValue) off"
        }
    }
}
