import BoxProtocol
import SessionInterface

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
        if case .error(let body) = message {
            if case .api = read.request, body.isBusyRefusal, read.busyRefusals < busyRetryLimit {
                read.busyRefusals += 1
                read.isWaitingToRetry = true
                held = read
                return .busy(retry: read.busyRefusals - 1)
            }
            return finish(
                .failure(SessionError(.box, "the box refused \(read.request.wireType): \(body.code)", box: body))
            )
        }
        switch (read.request, message) {
        case (.plan, .plan(let plan)):
            return finish(.success(.plan(plan)))
        case (.prices, .price(let price)):
            return finish(.success(.prices(price)))
        case (.history(let query), .histChunk(let chunk)):
            let (tiles, tileBytes) = (query.maxTiles, query.maxTileBytes)
            guard read.chunks.count < tiles, chunk.data.count <= tileBytes else {
                return finish(
                    .failure(
                        SessionError(
                            .responseTooLarge,
                            "hist.query #\(id) got more than \(tiles) tiles or a tile over \(tileBytes) bytes"
                        )
                    )
                )
            }
            read.chunks.append(chunk)
            held = read
            return .landed(chunk)
        case (.history, .histEnd(let end)):
            return finish(.success(.history(HistoryAnswer(chunks: read.chunks, end: end))))
        case (.api, _):
            return receiveAPI(message, read: read)
        default:
            return finish(.failure(Self.malformed("a \(message.type) does not answer \(read.request.wireType)")))
        }
    }

    /// `api.head`, then `api.chunk`s with `seq` 0, 1, 2…, then `api.end`; a body past the box's own ceiling (8 MiB)
    /// is refused before it is kept.
    private mutating func receiveAPI(_ message: Message, read: Held) -> Progress {
        let ceiling = APIRequest.maxResponseBytes
        var read = read
        switch message {
        case .apiHead(let head) where read.head == nil:
            read.head = head
        case .apiChunk(let chunk):
            guard read.head != nil, chunk.seq == read.nextChunk, chunk.seq < .max else {
                return finish(
                    .failure(Self.malformed("api.chunk \(chunk.seq) arrived where \(read.nextChunk) belongs"))
                )
            }
            guard Int64(read.body.count) + Int64(chunk.data.count) <= ceiling else {
                return finish(.failure(SessionError(.responseTooLarge, "the answer passed \(ceiling) bytes")))
            }
            read.body += chunk.data
            read.nextChunk = chunk.seq + 1
        case .apiEnd(let end):
            if end.truncated {
                return finish(.failure(SessionError(.responseTooLarge, "the box cut the answer at \(end.bytes) bytes")))
            }
            guard let head = read.head else { return finish(.failure(Self.malformed("api.end came without api.head"))) }
            return finish(.success(.api(APIResponse(status: head.status, headers: head.headers, body: read.body))))
        default:
            return finish(.failure(Self.malformed("a \(message.type) does not answer api.req")))
        }
        held = read
        return .landed(nil)
    }

    private mutating func finish(_ result: Result<ReadAnswer, SessionError>) -> Progress {
        guard let read = release() else { return .notOurs }
        return .finished(read, result)
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
