public import FTWBoxProtocol

/// The check every message-reading fuzzer ends with: a message read from the wire, written again and read back,
/// is the same message, and its frame decodes to it.
///
/// A message the app reads but cannot write back the same way would be cached, forwarded or compared wrong.
/// Doubles that are NaN never compare equal, so for those the check falls back to comparing the written bytes.
public enum MessageRoundTrip {
    /// Traps when `message` does not survive its envelope encoder, or its frame (when it fits one) decodes to
    /// something else.
    public static func check(_ message: Message, id: UInt32?) {
        let envelope = message.envelope(id: id)
        let written = envelope.encoded()
        let reread: Message
        do {
            reread = try Message(envelope: try Envelope.decode(written))
        } catch {
            FuzzCheck.fail("\(message.type) written by us does not read back: \(error)")
        }
        FuzzCheck.require(same(reread, message), "\(message.type) reads back as another message")
        checkFrame(message, id: id, envelope: written)
    }

    /// Whether two reads gave the same message: equal, or (for a message holding a NaN, which equals nothing) the
    /// same bytes when written. Both nil is the same refusal.
    public static func same(_ first: Message?, _ second: Message?) -> Bool {
        guard let first, let second else { return first == nil && second == nil }
        return first == second || first.envelope(id: nil).encoded() == second.envelope(id: nil).encoded()
    }

    private static func checkFrame(_ message: Message, id: UInt32?, envelope: [UInt8]) {
        // A bulk frame picks its own bucket: one encoding is all there is to check.
        let buckets = message.lane == .control ? Frame.controlBuckets : [Frame.defaultControlBucket]
        for bucket in buckets {
            let frame: [UInt8]
            do {
                frame = try FrameCodec.encode(message, id: id, controlBucket: bucket)
            } catch {
                FuzzCheck.require(error.code == .oversized, "\(message.type) cannot be framed: \(error)")
                continue
            }
            let decoded = try? FrameCodec.decode(frame)
            FuzzCheck.require(
                decoded?.envelope.encoded() == envelope,
                "frame changed message"
            )
        }
    }
}
