extension LiveSession {
    /// Starts `timer` (replacing a running one of the same key); the loop starts its task after this state change.
    func arm(_ timer: SessionTimer, after duration: Duration) {
        cancel(timer)
        nextTimerToken += 1
        let stop = StopSignal()
        timers[timer] = (nextTimerToken, stop)
        effects.append(.timer(timer, duration, token: nextTimerToken, stop: stop))
    }

    /// Stops `timer` if it runs.
    func cancel(_ timer: SessionTimer) {
        timers.removeValue(forKey: timer)?.stop.stop()
    }

    func timerFired(_ timer: SessionTimer) {
        switch timer {
        case .displayFrame: displayFrameEnded()
        case .readDeadline: readDeadlinePassed()
        case .readTotal: readDeadlinePassed(total: true)
        case .busyRetry: busyRetryDue()
        case .handshake: handshakeTimedOut()
        case .room: roomStayedEmpty()
        case .helloAnswer: helloUnanswered()
        case .foregroundSilence: foregroundStayedSilent()
        case .bootHello: bootHelloDue()
        case .redial: dialIfWanted()
        case .commandAck(let cmdId): commandAckMissed(cmdId)
        case .commandResult(let cmdId): commandResultMissed(cmdId)
        }
    }
}
