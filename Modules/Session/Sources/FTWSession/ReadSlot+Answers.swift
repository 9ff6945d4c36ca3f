import FTWBoxProtocol
import FTWBus
import FTWSessionInterface

extension ReadSlot {
    /// What an incoming message did to the read holding the slot.
    enum Progress: Sendable {
        /// The message does not answer the read holding the slot (a late answer, another id): ignore it.
        case notOurs
        /// Part of the answer landed (an API head or chunk, a history tile); the silence deadline starts again.
        case landed(HistChunk?)
        /// The box's slot was busy; send again after the `retry`-th wait (0 for the first).
        case busy(retry: Int)
        /// The read is over; the slot is free.
        case finished(Held, Result<ReadAnswer, SessionError>)
    }

    /// Applies a message carrying request id `id` to the read holding the slot.
    ///
    /// - Parameter busyRetryLimit: How many busy refusals of an API read are sent again before one fails it.
    mutating func receive(_ message: Message, id: UInt32, busyRetryLimit: Int) -> Progress {
        guard var read = held, read.id == id, !read.isWaitingToRetry else { return .notOurs }
        // The slot lets go of the read while it changes, so its body and tiles grow in place rather than being
        // copied whole on every chunk; it takes the read back unless the read is over.
        held = nil
        let progress = advance(&read, with: message, id: id, busyRetryLimit: busyRetryLimit)
        if case .finished = progress { return progress }
        held = read
        return progress
    }

    /// Fails the read holding the slot under request id `id` with `error` (its answer came and does not read).
    mutating func fail(id: UInt32, with error: SessionError) -> Progress {
        guard let read = held, read.id == id, !read.isWaitingToRetry else { return .notOurs }
        held = nil
        return .finished(read, .failure(error))
    }

    private func advance(_ read: inout Held, with message: Message, id: UInt32, busyRetryLimit: Int) -> Progress {
        if case .error(let body) = message {
            if case .api = read.request, body.isBusyRefusal, read.busyRefusals < busyRetryLimit {
                read.busyRefusals += 1
                read.isWaitingToRetry = true
                return .busy(retry: read.busyRefusals - 1)
            }
            return .finished(read, .failure(Self.boxError(body, on: read.request.wireType)))
        }
        switch (read.request, message) {
        case (.plan, .plan(let plan)):
            return .finished(read, .success(.plan(plan)))
        case (.prices, .price(let price)):
            return .finished(read, .success(.prices(price)))
        case (.history(let query), .histChunk(let chunk)):
            let (tiles, tileBytes) = (query.maxTiles, query.maxTileBytes)
            guard read.chunks.count < tiles, chunk.data.count <= tileBytes else {
                return .finished(
                    read,
                    .failure(
                        SessionError(
                            .responseTooLarge,
                            "hist.query #\(id) got more than \(tiles) tiles or a tile over \(tileBytes) bytes"
                        )
                    )
                )
            }
            read.chunks.append(chunk)
            return .landed(chunk)
        case (.history, .histEnd(let end)):
            return .finished(read, .success(.history(HistoryAnswer(chunks: read.chunks, end: end))))
        case (.api, _):
            return receiveAPI(message, read: &read)
        default:
            return .finished(
                read,
                .failure(Self.malformed("a \(message.type) does not answer \(read.request.wireType)"))
            )
        }
    }

    /// `api.head`, then `api.chunk`s with `seq` 0, 1, 2…, then `api.end`; a body past the box's own ceiling (8 MiB)
    /// is refused before it is kept.
    private func receiveAPI(_ message: Message, read: inout Held) -> Progress {
        let ceiling = APIRequest.maxResponseBytes
        switch message {
        case .apiHead(let head) where read.head == nil:
            read.head = head
        case .apiChunk(let chunk):
            guard read.head != nil, chunk.seq == read.nextChunk, chunk.seq < .max else {
                return .finished(
                    read,
                    .failure(Self.malformed("api.chunk \(chunk.seq) arrived where \(read.nextChunk) belongs"))
                )
            }
            guard Int64(read.bodyBytes) + Int64(chunk.data.count) <= ceiling else {
                return .finished(read, .failure(SessionError(.responseTooLarge, "the answer passed \(ceiling) bytes")))
            }
            read.bodyChunks.append(chunk.data)
            read.bodyBytes += chunk.data.count
            read.nextChunk = chunk.seq + 1
        case .apiEnd(let end):
            if end.truncated {
                return .finished(
                    read,
                    .failure(SessionError(.responseTooLarge, "the box cut the answer at \(end.bytes) bytes"))
                )
            }
            guard let head = read.head else {
                return .finished(read, .failure(Self.malformed("api.end came without api.head")))
            }
            return .finished(
                read,
                .success(
                    .api(APIResponse(status: head.status, headers: head.headers, body: Array(read.bodyChunks.joined())))
                )
            )
        default:
            return .finished(read, .failure(Self.malformed("a \(message.type) does not answer api.req")))
        }
        return .landed(nil)
    }

    /// The box's `error` on a read, said as what happened: a busy box did not refuse the read, it had no room for it.
    private static func boxError(_ body: ErrorBody, on wireType: String) -> SessionError {
        let message =
            body.isBusyRefusal
            ? "the box was busy and could not take \(wireType) this time (\(body.code))"
            : "the box refused \(wireType): \(body.code)"
        return SessionError(.box, message, box: body)
    }

    private static func malformed(_ message: String) -> SessionError {
        SessionError(.malformedAnswer, message)
    }
}

extension ErrorBody {
    /// `E_UNAVAILABLE {reason: busy}`: the box's one passthrough slot was taken, and no handler ran.
    var isBusyRefusal: Bool {
        code == .unavailable && args["reason"]?.string == "busy"
    }
}
