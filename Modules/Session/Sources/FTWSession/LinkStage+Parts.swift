import FTWBoxProtocol
import FTWSessionInterface

extension LinkStage {
    /// One carrier, whatever Noise session runs on it: which dial it is, and what its first `ready` showed of the link.
    struct Carrier: Sendable {
        /// Tells this carrier's reports from a previous one's.
        let generation: Int
        /// When the dial started, on the session's clock.
        let dialStarted: Duration
        /// How long the relay took, from the dial's start, to say the box is in the room: the link's delay as this
        /// phone can see it, when `ready` came within the room's deadline (a later one waited for the box, not the
        /// link). A silence shorter than twice this says nothing about the box.
        var roomDelay: Duration?
    }

    /// What a run of dials carries from one to the next until a handshake is done: only the stages before one hold it.
    struct Approach: Sendable, Hashable {
        /// The next handshake gets the short deadline: the first after a return to the front, or after its watchdog's
        /// redial.
        var hurried = false
        /// Handshakes in a row the box left unanswered while in its room, on a quiet link: enough of them is a refusal.
        var silentHandshakes = 0
    }

    /// A carrier dialled and not in a Noise session yet: dialling, or attached and waiting for the box's `ready`.
    struct Attempt: Sendable {
        var carrier: Carrier
        var approach: Approach
        /// What the return's watchdog counts from, while it waits for this carrier's first message; nil when none
        /// waits (nothing asked for one, or something arrived).
        var watchdog: WatchdogMoment?
    }

    /// Message 1 is out: message 2 moves on to greeting, the deadline or `gone` end it.
    struct Handshake: Sendable {
        var carrier: Carrier
        /// The silences in a row before this handshake.
        var silentHandshakes: Int
        var channel: SecureChannel
        /// Whether message 1 carried the pairing code.
        let offeredCode: Bool
        let deadline: Duration
        /// Messages from the box's side that no box sends since message 1: a deadline that passes after them is the
        /// box misbehaving, not its silence. Another phone's traffic in the room has a box's shape and does not count.
        var junk = 0
    }

    /// The handshake is done and `hello` is out (again every few seconds while the box boots).
    struct Greeting: Sendable {
        var carrier: Carrier
        var channel: SecureChannel
        /// The connection number of this process, given when the handshake was done.
        let number: Int
        /// As the handshake's, since `hello` went out.
        var junk = 0
        /// Whether a frame of ours has arrived on this Noise session.
        var delivered = false
        /// Whether `streamReturned` was published for this Noise session.
        var returned = false
    }

    /// `hello_ok` arrived from a box that is up: reads may go out, the beats are watched.
    struct Stream: Sendable {
        var carrier: Carrier
        var channel: SecureChannel
        let number: Int
        /// Whether a separate `sub` went out on this Noise session.
        var subscribed: Bool
        var returned: Bool
        /// This Noise session's request ids.
        var requestIDs: RequestIDCounter
        /// The stream's beats against its gap rule.
        var beats: BeatWatch
        /// What the watchdog counts from after a network change, until the next message arrives.
        var watchdog: WatchdogMoment?
        /// The box's answer to our hello, boxed: it is half the stream's size and a dozen references, which every
        /// live frame's move of the stream in and out of its stage would copy, while it changes once a session.
        private var answer: Answer

        /// The box's answer to our hello.
        var hello: HelloOK {
            get { answer.hello }
            set { answer = Answer(hello: newValue) }
        }

        /// A `hello_ok`, shared rather than copied.
        private final class Answer: Sendable {
            let hello: HelloOK

            init(hello: HelloOK) {
                self.hello = hello
            }
        }

        init(from greeting: Greeting, hello: HelloOK, requestIDs: RequestIDCounter, beats: BeatWatch) {
            carrier = greeting.carrier
            channel = greeting.channel
            number = greeting.number
            subscribed = !hello.subscribed
            returned = greeting.returned
            self.requestIDs = requestIDs
            self.beats = beats
            answer = Answer(hello: hello)
        }
    }

    /// No carrier: the next dial waits until `untilMs`.
    struct BackingOff: Sendable {
        let untilMs: Int64
        /// Why the last connection ended.
        let because: SessionError
        /// What the next dial inherits.
        let approach: Approach
    }

    /// What ended with a Noise session, for the rules beside the stage.
    struct EndedSession: Sendable, Hashable {
        /// The handshake that ended had offered the pairing code, and got no clear answer.
        let offeredCode: Bool
        /// `streamReturned` was published for it: its loss is said.
        let returned: Bool
    }

    /// A carrier that ended: which one, its Noise session's end, and what the next dial inherits.
    struct Ended: Sendable {
        let generation: Int
        let session: EndedSession
        let approach: Approach
    }

    /// What a dial's attachment asks of the session.
    enum OnAttached: Sendable, Hashable {
        /// Not the carrier being dialled: a stale report.
        case stale
        /// Wait for `ready` within the room's deadline.
        case waitForReady
        /// The box comes at the hour's turn: the room's deadline (and the watchdog, if `watched`) count from `arrival`.
        case waitForBox(BoxArrival, watched: Bool)
    }

    /// What the box's `ready` asks of the session.
    enum OnRoomReady: Sendable, Hashable {
        /// No carrier is attached.
        case ignore
        /// Start a handshake (after ending `ended`, the Noise session the box's rejoin dropped).
        case handshake(hurried: Bool, roomDelay: Duration?, ended: EndedSession?)
    }

    /// What `hello_ok` asks of the session.
    enum OnHello: Sendable, Hashable {
        /// No greeting or stream.
        case ignore
        /// The box still boots: say hello again later.
        case booting
        /// The stream is up; send a `sub` when `subscribe`.
        case streaming(subscribe: Bool)
    }

    /// What a network change asks of the session.
    enum OnNetworkChange: Sendable, Hashable {
        /// A live stream is checked by the watchdog, not torn down.
        case watchStream
        /// Anything else belongs to the old path: end it and dial at once (watched from `watching` if a watchdog was).
        case redial(watching: WatchdogMoment?)
    }
}
