import FTWBoxProtocol

/// The request log's line for a request frame, for a person: `GET /api/loadpoints`, `plan`,
/// `5m 2026-12-01T10:00Z..2026-12-03T10:00Z have=3`, `site.mode.set`.
enum RequestDetail {
    /// The wire types that ask the box something (hello and sub do not).
    static let requestTypes: Set<String> = [
        Plan.requestWireType, PriceGet.wireType, HistQuery.wireType, APIRequest.wireType, Command.wireType,
    ]

    /// The line for `envelope`; a body that cannot be read says so.
    static func describe(_ envelope: Envelope) -> String {
        let body = envelope.body
        switch envelope.type {
        case Plan.requestWireType: return "plan"
        case PriceGet.wireType:
            guard let from = body?["fromMs"]?.int64, let to = body?["toMs"]?.int64 else { break }
            return "\(WallTime.stamp(from))..\(WallTime.stamp(to))"
        case HistQuery.wireType:
            guard let res = body?["res"]?.string, let from = body?["fromMs"]?.int64, let to = body?["toMs"]?.int64
            else { break }
            let have = body?["have"]?.arrayValue?.count ?? 0
            return "\(res) \(WallTime.stamp(from))..\(WallTime.stamp(to)) have=\(have)"
        case APIRequest.wireType:
            guard let method = body?["method"]?.string, let path = body?["path"]?.string else { break }
            return "\(method) \(path)\(query(body?["query"]))"
        case Command.wireType:
            guard let op = body?["op"]?.string else { break }
            return op
        default: break
        }
        return "\(envelope.type) (unreadable body)"
    }

    private static func query(_ value: CBOR?) -> String {
        guard let entries = value?.mapValue?.entries, !entries.isEmpty else { return "" }
        let pairs = entries.compactMap { entry -> String? in
            guard let key = entry.key.string, let value = entry.value.string else { return nil }
            return "\(key)=\(value)"
        }
        return "?" + pairs.sorted().joined(separator: "&")
    }
}
