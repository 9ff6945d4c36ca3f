import FTWBus
import FTWClockSeam
import FTWNoise
import FTWSessionInterface

extension SimulatedBox {
    /// The largest number of sessions one uplink carries; a fifth handshake evicts the oldest.
    static let maxSessions = 4

    /// A binary message reaching the uplink: a transport message of a live session, or else, at 96 bytes or more,
    /// a possible handshake message 1. Anything else, and any refused handshake, gets silence.
    func receive(_ bytes: [UInt8]) {
        for index in sessions.indices {
            var noise = sessions[index].noise
            do throws(NoiseError) {
                let frame = try noise.open(bytes)
                sessions[index].noise = noise
                return handleFrame(frame, session: sessions[index].number)
            } catch {
                if error.code == .replay { return }
            }
        }
        guard bytes.count >= NoiseHandshake.message1Overhead else { return }
        handshake(bytes)
    }

    /// Reads message 1 under the production prologue, authorises the phone, and only then answers with message 2.
    private func handshake(_ bytes: [UInt8]) {
        let prologue = NoiseHandshake.productionPrologue(boxStaticPublicKey: identity.staticPublicKey)
        guard
            var responder = try? NoiseHandshake.responder(
                staticPrivateKey: identity.staticPrivateKey,
                prologue: prologue
            ),
            let message1 = try? responder.readMessage1(bytes)
        else { return }
        let known = enrolment.devices
        let burnt = enrolment.burntCodes
        let admitted = enrolment.admit(
            appKey: message1.remoteStaticPublicKey,
            payload: message1.payload,
            nowMs: wallClock.nowMs
        )
        if enrolment.burntCodes != burnt { notifyCodeBurnt() }
        guard admitted != nil else { return }
        if enrolment.devices != known { notifyEnrolmentChanged() }
        guard let reply = try? responder.writeMessage2(payload: []) else { return }
        open(session: reply.session, appKey: message1.remoteStaticPublicKey)
        relay(.toRoom(.binary(reply.message)))
    }

    /// Adds a session; a phone has one at a time, and a fifth phone evicts the oldest.
    private func open(session noise: NoiseSession, appKey: [UInt8]) {
        sessions.removeAll { $0.appKey == appKey }
        if sessions.count >= Self.maxSessions { sessions.removeFirst() }
        sessions.append(AppSession(number: nextSessionNumber, appKey: appKey, noise: noise))
        nextSessionNumber += 1
    }

    /// The index of session `number`, if it is still open.
    func index(of number: Int) -> Int? {
        sessions.firstIndex { $0.number == number }
    }

    func closeSession(_ number: Int) {
        sessions.removeAll { $0.number == number }
    }
}
