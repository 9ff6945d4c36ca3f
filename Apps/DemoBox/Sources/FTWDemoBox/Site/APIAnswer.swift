import FTWBoxProtocol
import Foundation

/// What a route's handler answered: an HTTP status and a JSON body, streamed as `api.head`, `api.chunk`s and
/// `api.end`.
struct APIAnswer: Sendable, Hashable {
    static let contentType = "application/json"

    var status: Int
    var body: [UInt8]

    /// `document` as JSON with sorted keys, so the same state always reads as the same bytes.
    static func json(_ document: some Encodable, status: Int = 200) -> APIAnswer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(document) else {
            return APIAnswer(status: 500, body: Array(#"{"error":"encoding"}"#.utf8))
        }
        return APIAnswer(status: status, body: Array(data))
    }

    /// An HTTP failure with a JSON `{error, code?}` body: a handler ran, so it is an answer, not an E_ code.
    static func failure(_ status: Int, _ error: String, code: String? = nil) -> APIAnswer {
        json(APIDocuments.Failure(error: error, code: code), status: status)
    }

    /// The frames of this answer to `request`: no body for HEAD, cut at the request's `maxBytes` (at most 8 MiB),
    /// in chunks of 12288 bytes numbered from 0.
    func messages(for request: APIRequest) -> [Message] {
        let body = request.method == "HEAD" ? [] : body
        let ceiling = APIRequest.maxResponseBytes
        let limit = Int(min(request.maxBytes.flatMap { $0 > 0 ? $0 : nil } ?? ceiling, ceiling))
        let sent = Array(body.prefix(limit))
        let head = APIHead(status: status, headers: ["Content-Type": Self.contentType], len: Int64(body.count))
        var messages: [Message] = [.apiHead(head)]
        for (seq, start) in stride(from: 0, to: sent.count, by: APIChunk.chunkBytes).enumerated() {
            let data = Array(sent[start..<min(sent.count, start + APIChunk.chunkBytes)])
            messages.append(.apiChunk(APIChunk(seq: UInt32(seq), data: data)))
        }
        messages.append(.apiEnd(APIEnd(bytes: Int64(sent.count), truncated: sent.count < body.count)))
        return messages
    }
}
