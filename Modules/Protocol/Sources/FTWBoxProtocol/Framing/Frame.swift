/// One frame: the 6-byte header, the CBOR envelope and the zero padding that hides its length (§1.2-1.3).
///
/// Layout (version 1): `ver` (1), `lane`, `flags`, a reserved zero byte, `len` (u16 big-endian), then `len`
/// payload bytes and zeros up to the bucket size. One frame is one Noise transport message; there is no
/// fragmentation, so a payload that fits no bucket cannot be sent at all.
public struct Frame: Sendable, Hashable {
    /// Bytes before the payload.
    public static let headerSize = 6
    /// The frame layout version this module reads and writes.
    public static let version: UInt8 = 1
    /// The sizes a lane 0 frame may have; one of them is fixed for a whole session by its first `sub`.
    public static let controlBuckets = [256, 512]
    /// The lane 0 size before any `sub` chooses one, and both reference clients' choice.
    public static let defaultControlBucket = 512
    /// The sizes a bulk frame may have, smallest first.
    public static let bulkBuckets = [1024, 4096, 16384]

    /// The lane the frame travels on.
    public var lane: Lane
    /// The header's flags.
    public var flags: FrameFlags
    /// The CBOR envelope, without padding.
    public var payload: [UInt8]
    /// The frame's total size in bytes, padding included.
    ///
    /// For lane 0 it must be one of ``controlBuckets``; for the bulk lane encoding always uses the smallest of
    /// ``bulkBuckets`` that holds the payload, as the box does. A decoded frame records its actual length.
    public var bucket: Int

    /// Makes a frame.
    ///
    /// - Parameters:
    ///   - lane: The lane it travels on.
    ///   - flags: The header's flags.
    ///   - payload: The CBOR envelope.
    ///   - bucket: Its total size; nil picks ``defaultControlBucket`` for lane 0 and the smallest bulk bucket that
    ///     holds the payload for lane 1.
    public init(lane: Lane, flags: FrameFlags = [], payload: [UInt8], bucket: Int? = nil) {
        self.lane = lane
        self.flags = flags
        self.payload = payload
        switch lane {
        case .control: self.bucket = bucket ?? Self.defaultControlBucket
        case .bulk:
            self.bucket = bucket ?? Self.bulkBucket(forPayload: payload.count) ?? Self.headerSize + payload.count
        }
    }

    /// The smallest bulk bucket that holds a payload of `count` bytes, or nil when none does.
    public static func bulkBucket(forPayload count: Int) -> Int? {
        bulkBuckets.first { count <= $0 - headerSize }
    }

    /// The frame's bytes, padded with zeros to its bucket.
    ///
    /// - Throws: ``ProtocolError`` `.badFrame` for a lane 0 bucket other than 256 or 512, `.oversized` when the
    ///   payload does not fit the bucket (lane 0) or the largest bulk bucket.
    public func encoded() throws(ProtocolError) -> [UInt8] {
        let size = try encodedSize()
        var bytes: [UInt8] = [Self.version, lane.rawValue, flags.rawValue, 0]
        bytes.append(UInt8(payload.count >> 8))
        bytes.append(UInt8(payload.count & 0xff))
        bytes.reserveCapacity(size)
        bytes.append(contentsOf: payload)
        bytes.append(contentsOf: repeatElement(0, count: size - bytes.count))
        return bytes
    }

    private func encodedSize() throws(ProtocolError) -> Int {
        switch lane {
        case .control:
            guard Self.controlBuckets.contains(bucket) else {
                throw ProtocolError(.badFrame, "a lane 0 frame must be 256 or 512 bytes, not \(bucket)")
            }
            guard payload.count <= bucket - Self.headerSize else {
                throw ProtocolError(
                    .oversized,
                    "a \(payload.count)-byte payload does not fit a \(bucket)-byte lane 0 frame"
                )
            }
            return bucket
        case .bulk:
            guard let size = Self.bulkBucket(forPayload: payload.count) else {
                throw ProtocolError(.oversized, "a \(payload.count)-byte payload does not fit the largest bulk frame")
            }
            return size
        }
    }

    /// Reads a frame as the box does: version 1 only, a known lane, `len` within the bytes; the padding after
    /// the payload is ignored (the AEAD already covers it) and the total length becomes the bucket.
    ///
    /// - Throws: ``ProtocolError`` `.truncated` for fewer than 6 bytes or a `len` past the end, `.badFrame` for
    ///   another version or an unknown lane.
    public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> Frame {
        let header = try header(of: bytes)
        return Frame(
            lane: header.lane,
            flags: header.flags,
            payload: Array(bytes[header.payload]),
            bucket: bytes.count
        )
    }

    /// The header's lane and flags and where the payload lies in `bytes`, checked as ``decode(_:)`` checks them.
    static func header(
        of bytes: [UInt8]
    ) throws(ProtocolError) -> (lane: Lane, flags: FrameFlags, payload: Range<Int>) {
        guard bytes.count >= headerSize else {
            throw ProtocolError(.truncated, "a frame needs 6 header bytes, got \(bytes.count)", offset: bytes.count)
        }
        guard bytes[0] == version else {
            throw ProtocolError(.badFrame, "frame version \(bytes[0]) is not 1", offset: 0)
        }
        guard let lane = Lane(rawValue: bytes[1]) else {
            throw ProtocolError(.badFrame, "lane \(bytes[1]) is neither 0 nor 1", offset: 1)
        }
        let length = Int(bytes[4]) << 8 | Int(bytes[5])
        guard length <= bytes.count - headerSize else {
            throw ProtocolError(
                .truncated,
                "the header declares \(length) payload bytes but the frame holds \(bytes.count - headerSize)",
                offset: 4
            )
        }
        return (lane, FrameFlags(rawValue: bytes[2]), headerSize..<headerSize + length)
    }
}
