import FTWBoxProtocol
import FTWFuzzSupport

/// libFuzzer's entry: a message type, a request id and a CBOR body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMessages(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    MessagesTarget.run(&input)
    return 0
}

/// Every message body's reader, reached directly: the first byte picks the type (or the tile data reader), the
/// next byte whether there is an id and the next four which, and the rest is the body's CBOR.
///
/// The frame fuzzer spends most of its inputs getting the envelope right; this one starts inside it, so the
/// readers' field checks get the mutations. Whatever a reader accepts must survive the round trip.
enum MessagesTarget {
    /// Every type this build reads, and one it does not.
    static let types = [
        "hello", "hello_ok", "sub", "snap", "delta", "tick", "plan.get", "plan", "price.get", "price", "hist.query",
        "hist.chunk", "hist.end", "api.req", "api.head", "api.chunk", "api.end", "cmd", "cmd.ack", "cmd.result",
        "event", "error", "session.terminate", "plan.v2",
    ]

    static func run(_ input: inout FuzzInput) {
        let pick = input.choice(below: types.count + 1)
        let hasID = input.byte() & 1 == 1
        let id = UInt32(truncatingIfNeeded: input.uint64() >> 32)
        guard pick < types.count else {
            checkTileData(&input)
            return
        }
        guard let body = try? CBORDecoder().decode(input.rest()) else { return }
        let envelope = Envelope(type: types[pick], id: hasID ? id : nil, body: body)
        guard let message = try? Message(envelope: envelope) else { return }
        MessageRoundTrip.check(message, id: envelope.id)
    }

    /// The tile's packed columns: what decodes re-encodes to the same bytes.
    static func checkTileData(_ input: inout FuzzInput) {
        let series = input.choice(below: 8)
        let points = input.choice(below: 256)
        let data = input.rest()
        guard let columns = try? TileData.decode(data, series: series, points: points) else { return }
        FuzzCheck.require(columns.count == series, "tile data has \(columns.count) columns, not \(series)")
        FuzzCheck.require(columns.allSatisfy { $0.count == points }, "a tile column has the wrong length")
        FuzzCheck.require(TileData.encode(columns) == data, "tile data does not re-encode to its bytes")
    }
}
