/// The close status codes RFC 6455 §7.4 names, and the rule for which codes may travel in a close frame.
///
/// Codes are plain `UInt16`s rather than an enum because applications define their own in 3000–4999 (the relay
/// uses 4400, 4409, 4410 and 4429), and those must round-trip untouched.
public enum WebSocketCloseCode {
    /// The purpose of the connection was fulfilled.
    public static let normalClosure: UInt16 = 1000
    /// The endpoint is going away (server shutdown, page navigation).
    public static let goingAway: UInt16 = 1001
    /// The peer broke the protocol.
    public static let protocolError: UInt16 = 1002
    /// The peer sent a kind of data this endpoint cannot accept.
    public static let unsupportedData: UInt16 = 1003
    /// Reported locally when a close frame carried no code; never sent.
    public static let noStatusReceived: UInt16 = 1005
    /// Reported locally when TCP ended without a close frame; never sent.
    public static let abnormalClosure: UInt16 = 1006
    /// A message's data did not match its type (text that is not UTF-8).
    public static let invalidPayload: UInt16 = 1007
    /// A message broke the endpoint's policy.
    public static let policyViolation: UInt16 = 1008
    /// A message was larger than the endpoint accepts.
    public static let messageTooBig: UInt16 = 1009
    /// The server hit an unexpected condition.
    public static let internalError: UInt16 = 1011

    /// Whether `code` may appear in a close frame on the wire.
    ///
    /// Accepts 1000–1003, 1007–1011, 1012–1014 (registered with IANA after the RFC and sent by common servers on
    /// restart) and the library and application range 3000–4999. 1004–1006 and 1015 are reserved or local-only.
    public static func isAllowedOnWire(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
