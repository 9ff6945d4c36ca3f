/// Where the session stands with its pairing code, and when the code may leave again: pure transitions.
///
/// The box enrols a phone's key when it takes message 1 (protocol.md §8.1), before its answer is on its way, and
/// knows a known key by an empty payload (§8.2). So an offer of the code that got no clear answer (a cut, a kill,
/// junk, a link too slow to judge) may have enrolled this phone: the next handshake greets as a known device. Only
/// the box's refusal of that greeting (a silence on a quiet, quick link while it is in its room) lets the code leave
/// again, and only while no offer of it was itself met by such a silence: then the box took the code and refused it,
/// and it is never offered again (each offer of a spent code is a wrong guess against the box's live codes).
enum CodeOffer: Sendable, Hashable {
    /// What a silence that counts (the box in its room, the link quiet and quick) means for the handshake it ended.
    enum Verdict: Sendable, Hashable {
        /// The code was offered and left unanswered: greet as a known device next, since the box may have enrolled
        /// this phone and its answer been lost.
        case greetNext
        /// A greeting the box does not know, after offers that never got a clear hearing: offer the code again.
        case offerAgain
        /// A greeting the box does not know, after an offer it heard and left unanswered: it refused the code.
        case codeRefused
        /// A known device's greeting left unanswered: one more silence towards "the box no longer knows this phone".
        case knownDeviceSilence
    }

    /// A known device: every handshake greets with an empty payload.
    case known
    /// The next handshake offers the code.
    case offer
    /// The next handshake greets as a known device first; `heard` once an offer of the code was met by a silence that
    /// counts, so that a refused greeting means a refused code.
    case greetFirst(heard: Bool)

    /// Where a session made with `identity` starts: offering its code, or greeting first when the code may have
    /// reached the box before.
    init(_ identity: SessionIdentity) {
        if identity.payload.isEmpty {
            self = .known
        } else {
            self = identity.codeMayBeSpent ? .greetFirst(heard: false) : .offer
        }
    }

    /// Whether the next handshake carries the code.
    var offersCode: Bool { self == .offer }

    /// A handshake ended in a silence that counts.
    mutating func silenced() -> Verdict {
        switch self {
        case .known:
            return .knownDeviceSilence
        case .offer:
            self = .greetFirst(heard: true)
            return .greetNext
        case .greetFirst(heard: true):
            return .codeRefused
        case .greetFirst(heard: false):
            self = .offer
            return .offerAgain
        }
    }

    /// A handshake that offered the code ended without a clear answer (a cut, a slow or misbehaving link, the
    /// background, a stop): greet first next time.
    mutating func offerUnanswered() {
        if self == .offer { self = .greetFirst(heard: false) }
    }

    /// A handshake was answered: the box knows this phone.
    mutating func accepted() {
        self = .known
    }
}
