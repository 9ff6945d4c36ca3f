/// One direction's cipher after the handshake: seals outgoing frames or opens incoming ones.
///
/// The wire is `seq` (u64 big-endian, in the clear) ‖ ChaCha20-Poly1305(frame) with those 8 bytes as associated
/// data and `seq` as the Noise nonce. Carrying the sequence number lets the receiver open messages the relay
/// delivered out of order, and the replay window refuses the ones it has seen.
import FTWBus

public struct NoiseTransport: Sendable {
    /// Bytes a wire message adds to its frame: 8 of sequence number and 16 of tag.
    public static let overhead = 24

    private static let sequenceSize = 8

    private let key: [UInt8]
    /// The key's cipher context, made at the first message; a copy of the transport makes its own (see
    /// ``TransportCipher``).
    private var cipher: TransportCipher?
    /// The sequence number the next ``seal(_:)`` uses; starts at 0 for each direction of each session.
    public private(set) var nextSequence: UInt64
    /// The sequence numbers ``open(_:)`` has accepted.
    public private(set) var window = ReplayWindow()

    /// A transport under `key` whose next sent message has sequence number `nextSequence`.
    ///
    /// Package-wide so tests can start near the nonce limit instead of sealing 2^64 messages to reach it.
    package init(key: [UInt8], nextSequence: UInt64 = 0) {
        self.key = key
        self.nextSequence = nextSequence
    }

    /// Seals `frame` for the wire under the next sequence number.
    ///
    /// - Returns: `seq` ‖ ciphertext ‖ tag, `frame.count + 24` bytes.
    /// - Throws: `NoiseError` with `.nonceExhausted` once the next number would be 2^64−1: the session must end,
    ///   because this protocol never rekeys.
    public mutating func seal(_ frame: [UInt8]) throws(NoiseError) -> [UInt8] {
        let sequence = nextSequence
        guard sequence < .max else {
            throw NoiseError(.nonceExhausted, "sequence number 2^64−1 is never used; end the session")
        }
        let header = Self.header(sequence)
        var wire = header
        wire.reserveCapacity(frame.count + Self.overhead)
        try keyedCipher(for: "sealing").seal(frame, counter: sequence, associatedData: header[...], appendingTo: &wire)
        nextSequence = sequence + 1
        return wire
    }

    /// Opens a wire message and returns its frame.
    ///
    /// It authenticates before it looks at the replay window, because in a shared relay room a message sealed for
    /// another phone's session must read as "not mine", never as a replay; and only an authenticated message moves
    /// the window, so a stranger's message cannot block a genuine one.
    ///
    /// - Throws: `NoiseError` with `.malformed` for fewer than 24 bytes, `.authenticationFailed` when the message
    ///   is not from this session's peer (or was changed), `.replay` for an authentic message already seen or 64 or
    ///   more behind the newest.
    public mutating func open(_ wire: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard wire.count >= Self.overhead else {
            throw NoiseError(.malformed, "a transport message is at least 24 bytes, not \(wire.count)")
        }
        let header = wire.prefix(Self.sequenceSize)
        let sequence = header.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let frame = try keyedCipher(for: "opening").open(
            wire.dropFirst(Self.sequenceSize),
            counter: sequence,
            associatedData: header
        )
        guard window.accept(sequence) else {
            throw NoiseError(.replay, "sequence number \(sequence) was already seen or is too old")
        }
        return frame
    }

    /// Opens a wire message if it is this session's: its frame, or nil for anything else (fewer than 24 bytes, a
    /// number already seen or 64 or more behind the newest, a tag that does not match).
    ///
    /// The same verdicts as ``open(_:)``, priced for a relay room, where most messages that fail are another phone's:
    /// the window is only read before the tag is checked (a number it has seen or left behind is refused whoever
    /// sealed it), it moves only for an authentic message, and a refusal builds no error and allocates nothing.
    public mutating func openIfMine(_ wire: [UInt8]) -> [UInt8]? {
        guard wire.count >= Self.overhead else { return nil }
        let sequence = wire.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self).bigEndian }
        guard window.isFresh(sequence), let cipher = try? keyedCipher(for: "opening"),
            let frame = cipher.openIfAuthentic(
                wire[Self.sequenceSize...],
                counter: sequence,
                associatedData: wire[..<Self.sequenceSize]
            ),
            window.accept(sequence)
        else { return nil }
        return frame
    }

    /// The cipher this transport alone holds, made from the key when it has none yet or shares one with a copy.
    private mutating func keyedCipher(for step: String) throws(NoiseError) -> TransportCipher {
        if !isKnownUniquelyReferenced(&cipher) { cipher = try TransportCipher(key: key, for: step) }
        guard let cipher else { preconditionFailure("a transport's cipher was made just above") }
        return cipher
    }

    /// The 8-byte big-endian sequence number that leads each wire message.
    private static func header(_ sequence: UInt64) -> [UInt8] {
        withUnsafeBytes(of: sequence.bigEndian, Array.init)
    }
}
