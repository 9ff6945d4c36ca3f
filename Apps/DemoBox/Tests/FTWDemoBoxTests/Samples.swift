import FTWBoxProtocol
import Foundation

/// Messages and readings the tests share.
enum Samples {
    static func hello(sub: Sub? = Sub(), proto: ProtoRange = .current) -> Message {
        .hello(Hello(proto: proto, app: AppInfo(build: "test"), locales: ["en"], sub: sub))
    }

    static let series = ["grid_w", "pv_w", "battery_w", "load_w"]

    /// The error body of a received message, if it is one.
    static func error(_ received: TestPhone.Received?) -> ErrorBody? {
        guard case .error(let body)? = received?.message else { return nil }
        return body
    }

    /// The frames of `received` carrying lane 0 telemetry.
    static func stream(_ received: [TestPhone.Received]) -> [TestPhone.Received] {
        received.filter { $0.type == Tick.wireType || $0.type == Delta.wireType }
    }

    /// The sequence number of a tick or delta.
    static func seq(_ received: TestPhone.Received) -> UInt64? {
        switch received.message {
        case .tick(let tick): tick.seq
        case .delta(let delta): delta.seq
        default: nil
        }
    }

    /// The uptime of a tick or delta.
    static func uptime(_ received: TestPhone.Received) -> Int64? {
        switch received.message {
        case .tick(let tick): tick.uptimeMs
        case .delta(let delta): delta.uptimeMs
        default: nil
        }
    }

    /// A command as the Swift client sends it: lane 0, no envelope id.
    static func command(
        _ op: CommandOp,
        _ args: CBORMap,
        rev: UInt64,
        notValidAfterMs: Int64,
        guards: [Guard] = [],
        cmdId: String = UUID().uuidString.lowercased()
    ) -> Message {
        .cmd(
            Command(
                cmdId: cmdId,
                op: op,
                args: args,
                notValidAfterMs: notValidAfterMs,
                expect: Expect(rev: rev, guards: guards)
            )
        )
    }

    /// The JSON of an API answer's chunks.
    static func json(_ received: [TestPhone.Received]) -> Any? {
        let bytes = received.compactMap { received -> [UInt8]? in
            guard case .apiChunk(let chunk)? = received.message else { return nil }
            return chunk.data
        }.flatMap { $0 }
        return try? JSONSerialization.jsonObject(with: Data(bytes))
    }
}
