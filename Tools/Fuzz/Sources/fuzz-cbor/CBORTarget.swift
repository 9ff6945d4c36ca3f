import FTWBoxProtocol
import FTWFuzzSupport

/// libFuzzer's entry: one input, any bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBOR(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    CBORTarget.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// The CBOR decoder on any bytes, with the default limits and with tight ones.
///
/// Beyond "never traps": whatever it accepts must survive the encoder. Writing a decoded value and reading it back
/// must succeed, and writing that again must give the same bytes, in both key orders; its diagnostic notation must
/// print. A value the decoder builds but the encoder cannot round-trip would be a message the app reads one way and
/// forwards (or caches) another.
enum CBORTarget {
    static let tightLimits = CBORDecoder.Limits(maxDepth: 4, maxItems: 64, maxStringLength: 32)

    static func run(_ bytes: [UInt8]) {
        for limits in [CBORDecoder.Limits(), tightLimits] {
            guard let value = try? CBORDecoder(limits: limits).decode(bytes) else { continue }
            checkRoundTrip(value)
        }
    }

    static func checkRoundTrip(_ value: CBOR) {
        _ = value.diagnostic
        for order in [CBOREncoder.KeyOrder.asGiven, .deterministic] {
            let encoder = CBOREncoder(keyOrder: order)
            let written = encoder.encode(value)
            let reread: CBOR
            do {
                reread = try CBORDecoder().decode(written)
            } catch {
                FuzzCheck.fail(
                    "our own \(order) encoding of \(value.diagnostic.prefix(200)) does not decode: \(error)"
                )
            }
            FuzzCheck.require(
                encoder.encode(reread) == written,
                "\(order) encoding is not stable for \(value.diagnostic.prefix(200))"
            )
        }
    }
}
