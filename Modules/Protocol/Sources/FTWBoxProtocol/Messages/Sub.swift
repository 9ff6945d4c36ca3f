/// `sub` (app → box, lane 0): start or retune the telemetry stream (§2.3).
///
/// The first accepted `sub` fixes the session's lane 0 bucket; later ones change only the cadence.
public struct Sub: NestedWireBody {
    /// The wire type.
    public static let wireType = "sub"

    /// The lane 0 frame size for the session, 256 or 512 (the box uses 512 for anything else).
    public var bucket: Int
    /// The cadence: 1 while the app is visible, 0.2 while hidden; the box compares with 0.2 exactly, so 0.2 is
    /// written as a 64-bit double.
    public var hz: Double

    /// Makes a subscription.
    public init(bucket: Int = Frame.defaultControlBucket, hz: Double = 1) {
        self.bucket = bucket
        self.hz = hz
    }

    /// Reads the subscription.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        bucket = try reader.field("bucket").int()
        hz = try reader.field("hz").number()
    }

    /// `{bucket, hz}`: `hz` as an integer when whole, otherwise as the shortest exact float (`fb3fc999999999999a`
    /// for 0.2).
    public var body: CBOR {
        ["bucket": .int(Int64(bucket)), "hz": .number(hz)]
    }
}
