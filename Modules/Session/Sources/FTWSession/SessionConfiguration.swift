public import FTWBoxProtocol
import FTWClockSeam
import FTWSessionInterface

/// What the session says about itself in `hello`, and the numbers its rules run on.
///
/// The timings are the reference client's (protocol.md §2, §7, §8.3); they are here, named, so the README and the
/// tests can point at them and a scenario can see what a rule waits for.
public struct SessionConfiguration: Sendable, Hashable {
    /// The numbers the session's rules run on.
    public struct Timing: Sendable, Hashable {
        /// How long an idle slot waits before it sends, so reads asked in the same moment leave in order: one
        /// `DisplayFrame`.
        public var displayFrame: Duration = DisplayFrame.duration
        /// How long the Noise handshake may take after message 1.
        public var handshake: Duration = .seconds(12)
        /// The handshake deadline of the first attempt after a return to the front: a phone in a hurry.
        public var foregroundHandshake: Duration = .seconds(3)
        /// How long the box may take to answer `hello` once the handshake is done. Not in the reference client
        /// (which waited for ever); as long as the handshake's own deadline.
        public var helloAnswer: Duration = .seconds(12)
        /// How long a return to the front waits for a first message from the relay before it drops the carrier and
        /// redials once: a phone's NAT mapping dies in the background.
        public var foregroundSilence: Duration = .milliseconds(2_500)
        /// How often `hello` is sent again while the box says it is booting.
        public var bootHello: Duration = .seconds(5)
        /// Silence that ends a history read; every chunk re-arms it.
        public var historySilence: Duration = .seconds(20)
        /// Silence that ends an API read; the head and every chunk re-arm it.
        public var apiSilence: Duration = .seconds(20)
        /// How long a history or API read may take in all, from its first request frame to its last piece, however
        /// often the box breaks its silence: a box that trickles an answer cannot hold the one slot for a stay.
        public var readTotal: Duration = .seconds(60)
        /// How long a plan read may take.
        public var plan: Duration = .seconds(8)
        /// How long a price read may take.
        public var prices: Duration = .seconds(8)
        /// How long a command may wait for `cmd.ack` before it fails (E_NO_ACK).
        public var commandAck: Duration = .seconds(5)
        /// How long an acknowledged command may wait for `cmd.result` before it reads as unconfirmed.
        public var commandResult: Duration = .seconds(15)
        /// How far past the last box uptime a command stays valid (`notValidAfterMs`).
        public var commandValidity: Duration = .seconds(120)
        /// The first backoff ceiling after the path failed (a dial that failed, a carrier that closed); it doubles
        /// with each failed attempt: the reference app's carrier reconnect.
        public var backoffBase: Duration = .milliseconds(500)
        /// The largest backoff ceiling after the path failed.
        public var backoffCap: Duration = .seconds(60)
        /// The first backoff ceiling after the box, in its room on a path that works, did not answer the handshake
        /// or hello in time (or answered what does not read); it doubles with each failed attempt: the reference
        /// app's handshake retry. Longer than the path's, since asking a busy or restarting box again at once only
        /// adds to its load.
        public var handshakeBackoffBase: Duration = .seconds(3)
        /// The largest backoff ceiling after the box did not answer.
        public var handshakeBackoffCap: Duration = .seconds(60)
        /// The spread of a redial after the relay rotated the epoch (4410).
        public var rotationJitter: Duration = .seconds(3)
        /// The longest wait before a join after the relay's 4429 `slow down` (the shortest is half of it): short
        /// enough that the phone is live within 10 s of the relay's window turning, since joins refused within a
        /// window cost nothing more.
        public var slowDownRetry: Duration = .seconds(5)
        /// The first wait before a busy API read is sent again; it doubles with each retry.
        public var busyRetryBase: Duration = .milliseconds(250)

        /// The reference client's numbers.
        public init() {}
    }

    /// The app's build, sent in `hello.app.build`.
    public var build: String
    /// The person's languages, most preferred first (`hello.locales`).
    public var locales: [String]
    /// The subscription folded into `hello`: the lane 0 bucket and the cadence.
    public var subscription: Sub
    /// The protocol versions this client speaks.
    public var protocolRange: ProtoRange
    /// The numbers the rules run on.
    public var timing: Timing
    /// How many times a read refused as busy is sent again.
    public var busyRetries: Int
    /// How many 4409 epoch corrections in a row redial at once before the backoff takes over.
    public var epochCorrections: Int
    /// How many handshakes in a row a box in the room may leave unanswered, on a quiet link, before the silence
    /// reads as a refusal (`SessionError.Code.refused`): one silence may be a busy box, several are its "no". A
    /// handshake that carries a pairing code is refused at its first silence (each one is a guess on the box).
    public var silencesMeaningRefusal = 2
    /// Whether a relay whose TLS identity did not verify (`SessionError.Code.relayNotTrusted`) halts the session
    /// rather than being dialled again after the path's backoff. A running client keeps dialling (a captive portal's
    /// certificate gives way once the person logs in); a pairing or a greeting, where a person waits at the command,
    /// halts in the dial's own transition, so no second dial can start before whoever watches the session reacts.
    public var haltsOnUntrustedRelay = false
    /// The id of a session's first request; 1 on the wire. Tests start near `UInt32.max` to see the wrap.
    package var firstRequestID: UInt32 = 1

    /// The stream's gap rule in ms: three and a half beats of the subscription's cadence (3.5 s at 1 Hz, 17.5 s at
    /// 0.2 Hz). The stream is stale once that passes without a beat.
    package var boxGapMs: Int64 {
        let hz = subscription.hz > 0 ? subscription.hz : 1
        return BeatWatch.boxGapMs(beatMs: Int64((1000 / hz).rounded()))
    }

    /// Makes a configuration with the reference client's choices: 512-byte lane 0 at 1 Hz, protocol 0 to 1.
    public init(
        build: String,
        locales: [String] = ["en"],
        subscription: Sub = Sub(bucket: Frame.defaultControlBucket, hz: 1),
        protocolRange: ProtoRange = .current,
        timing: Timing = Timing(),
        busyRetries: Int = 3,
        epochCorrections: Int = 2
    ) {
        self.build = build
        self.locales = locales
        self.subscription = subscription
        self.protocolRange = protocolRange
        self.timing = timing
        self.busyRetries = busyRetries
        self.epochCorrections = epochCorrections
    }
}
