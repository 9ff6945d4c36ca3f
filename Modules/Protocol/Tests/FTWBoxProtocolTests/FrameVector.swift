import FTWFixtures
import Testing

/// One padded frame from `Vectors/webapp-vectors.json`.
struct FrameVector: Sendable, CustomTestStringConvertible {
    let name: String
    let lane: UInt8
    let flags: UInt8
    let bucket: Int
    let payloadLength: Int
    let envelopeKeys: [String]
    let bytes: [UInt8]

    var testDescription: String { name }

    var payload: [UInt8] { Array(bytes[6..<6 + payloadLength]) }

    static func all() throws -> [FrameVector] {
        let frames = try #require(try Vectors.json("webapp-vectors.json")["frames"] as? [[String: Any]])
        return try frames.map { frame in
            FrameVector(
                name: try #require(frame["name"] as? String),
                lane: try #require(frame["lane"] as? UInt8),
                flags: try #require(frame["flags"] as? UInt8),
                bucket: try #require(frame["bucket"] as? Int),
                payloadLength: try #require(frame["payloadLen"] as? Int),
                envelopeKeys: try #require(frame["envelopeKeys"] as? [String]),
                bytes: hex(try #require(frame["bytes"] as? String))
            )
        }
    }
}
