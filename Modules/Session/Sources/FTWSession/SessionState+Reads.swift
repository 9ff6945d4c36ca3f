import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWSessionInterface

extension SessionState {
    /// Read caller `id` asks `request`: it fails at once when the box ended the session or the app is in the
    /// background; otherwise it joins the slot's queue (or shares an equal read, hearing of the tiles already landed).
    mutating func enqueue(_ request: ReadRequest, order: ReadOrder, id: Int) {
        if let halt {
            actions.append(.answer(reader: id, .failure(halt)))
            return
        }
        // Kept until the next return, however long away, it would leave for a name that may no longer hold.
        if phase == .background {
            actions.append(.answer(reader: id, .failure(SessionError(.carrierLost, "the app is in the background"))))
            return
        }
        readers.insert(id)
        if case .sharingHeld(let landed) = slot.add(request, order: order, waiter: id) {
            for chunk in landed { actions.append(.chunk(reader: id, chunk)) }
        }
        pumpReads()
    }

    /// Sends the next read if the slot is idle and a stream is up: a person's at once, any other after one display
    /// frame.
    mutating func pumpReads() {
        guard slot.held == nil, link.isStreaming, let next = slot.next else { return }
        if next.order == .person {
            cancel(.displayFrame)
            sendNextRead()
        } else if timers[.displayFrame] == nil {
            arm(.displayFrame, after: configuration.timing.displayFrame)
        }
    }

    mutating func displayFrameEnded() {
        guard slot.held == nil, link.isStreaming else { return }
        sendNextRead()
    }

    private mutating func sendNextRead() {
        guard let id = link.takeRequestID(), let read = slot.sendNext(id: id) else { return }
        if read.request.hasSilenceDeadline { arm(.readTotal, after: configuration.timing.readTotal) }
        sendHeldRead(read)
    }

    /// A busy read's wait is over: send it again under a new id.
    mutating func busyRetryDue() {
        guard let id = link.takeRequestID(), let read = slot.resend(id: id) else { return }
        sendHeldRead(read)
    }

    private mutating func sendHeldRead(_ read: ReadSlot.Held) {
        do {
            try transmit(read.request.message, id: read.id)
        } catch {
            settleHeldRead(with: error)
            pumpReads()
            return
        }
        recordAsk(type: read.request.wireType, id: read.id, detail: read.request.askDetail)
        arm(.readDeadline, after: deadline(of: read.request))
    }

    /// How long the box may stay silent on `request`: the whole answer for a plan or prices, between two pieces
    /// for history and the API (whose whole answer has ``SessionConfiguration/Timing/readTotal``).
    private func deadline(of request: ReadRequest) -> Duration {
        let timing = configuration.timing
        switch request {
        case .plan: return timing.plan
        case .prices: return timing.prices
        case .history: return timing.historySilence
        case .api: return timing.apiSilence
        }
    }

    mutating func readProgressed(_ message: Message, id: UInt32) {
        advance(by: slot.receive(message, id: id, busyRetryLimit: configuration.busyRetries))
    }

    /// An answer on request id `id` did not read as a message: the read holding the slot under that id fails with
    /// `error` at once.
    mutating func readAnswerUnreadable(id: UInt32, _ error: SessionError) {
        advance(by: slot.fail(id: id, with: error))
    }

    private mutating func advance(by progress: ReadSlot.Progress) {
        switch progress {
        case .notOurs:
            return
        case .landed(let chunk):
            if let held = slot.held { arm(.readDeadline, after: deadline(of: held.request)) }
            guard let chunk, let readers = slot.held?.waiters else { return }
            for reader in readers where self.readers.contains(reader) { actions.append(.chunk(reader: reader, chunk)) }
        case .busy(let retry):
            cancel(.readDeadline)
            arm(.busyRetry, after: configuration.timing.busyRetryBase * (1 << min(retry, 16)))
        case .finished(let read, let result):
            cancel(.readDeadline)
            cancel(.readTotal)
            answer(read, with: result)
            pumpReads()
        }
    }

    /// The read holding the slot ran out of time: of silence, or (`total`) of time in all.
    mutating func readDeadlinePassed(total: Bool = false) {
        cancel(.readDeadline)
        cancel(.readTotal)
        cancel(.busyRetry)
        guard let read = slot.release() else { return }
        let error =
            total
            ? SessionError(
                .timeout,
                "the box did not finish \(read.request.wireType) #\(read.id) within \(configuration.timing.readTotal)"
            )
            : SessionError(.timeout, "the box said nothing on \(read.request.wireType) #\(read.id) in time")
        answer(read, with: .failure(error))
        pumpReads()
    }

    /// Fails the read holding the slot (the session under it ended) and frees the slot.
    mutating func settleHeldRead(with error: SessionError) {
        cancel(.readDeadline)
        cancel(.readTotal)
        cancel(.busyRetry)
        guard let read = slot.release() else { return }
        answer(read, with: .failure(error))
    }

    /// Answers every waiter of the read that held the slot; a failure tells those who joined it on the wire that
    /// it was shared (``SessionError/sharedOnWire``).
    private mutating func answer(_ read: ReadSlot.Held, with result: Result<ReadAnswer, SessionError>) {
        guard case .failure(var error) = result, !read.sharers.isEmpty else {
            return answer(readers: read.waiters, with: result)
        }
        answer(readers: read.waiters.filter { !read.sharers.contains($0) }, with: .failure(error))
        error.sharedOnWire = true
        answer(readers: read.waiters.filter { read.sharers.contains($0) }, with: .failure(error))
    }

    mutating func answer(readers: [Int], with result: Result<ReadAnswer, SessionError>) {
        for reader in readers where self.readers.remove(reader) != nil {
            actions.append(.answer(reader: reader, result))
        }
    }

    mutating func fail(readers: [Int], with error: SessionError) {
        answer(readers: readers, with: .failure(error))
    }

    mutating func cancelWaiter(_ id: Int) {
        let cancelled = SessionError(.cancelled, "the caller went away")
        if readers.remove(id) != nil {
            slot.remove(id)
            actions.append(.answer(reader: id, .failure(cancelled)))
        }
        if commands[id] != nil { settleCommand(id, .failure(cancelled)) }
    }
}

extension ReadRequest {
    /// Whether the read's deadline is one of silence, re-armed by each piece, so it needs a total deadline too.
    var hasSilenceDeadline: Bool {
        switch self {
        case .history, .api: true
        case .plan, .prices: false
        }
    }

    /// The request frame's message.
    var message: Message {
        switch self {
        case .api(let request): .apiReq(request)
        case .plan: .planGet
        case .prices(let window): .priceGet(window)
        case .history(let query): .histQuery(query)
        }
    }

    /// What the read asks, in a few words for the asks log.
    var askDetail: String {
        switch self {
        case .api(let request):
            let query = request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return "\(request.method) \(request.path)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        case .plan:
            return "plan"
        case .prices(let window):
            return "prices \(window.fromMs)..\(window.toMs)"
        case .history(let query):
            let series = query.series.joined(separator: ",")
            return "history \(query.res.rawValue) \(series) \(query.fromMs)..\(query.toMs) have \(query.have.count)"
        }
    }
}
