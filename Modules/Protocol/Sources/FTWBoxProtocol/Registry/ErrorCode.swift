/// A code in an `error` body or a command result (registry `errors` and `client_errors`, §2.11).
///
/// The box sends codes and args only; the app owns every word, and ``isRetryable`` tells it whether to offer a
/// retry at all.
public struct ErrorCode: WireName {
    /// The name as it appears on the wire.
    public let rawValue: String

    /// Wraps a name as it appears on the wire.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The box is starting up.
    public static let booting: ErrorCode = "E_BOOTING"
    /// The message type, op, argument or path was not understood.
    public static let unknownOp: ErrorCode = "E_UNKNOWN_OP"
    /// The command outlived `notValidAfterMs`.
    public static let commandExpired: ErrorCode = "E_CMD_EXPIRED"
    /// A guard failed against fresh state.
    public static let precondition: ErrorCode = "E_PRECONDITION"
    /// `expect.rev` did not match the box's `controlRev`.
    public static let conflict: ErrorCode = "E_CONFLICT"
    /// The grant lacks the scope or role.
    public static let scopeDenied: ErrorCode = "E_SCOPE_DENIED"
    /// Access was withdrawn.
    public static let grantRevoked: ErrorCode = "E_GRANT_REVOKED"
    /// The only owner cannot be removed.
    public static let lastOwnerProtected: ErrorCode = "E_LAST_OWNER_PROTECTED"
    /// The history window exceeds the limit (defined, never sent: the box clamps instead).
    public static let rangeTooLarge: ErrorCode = "E_RANGE_TOO_LARGE"
    /// A subsystem is down or missing, or the passthrough is busy.
    public static let unavailable: ErrorCode = "E_UNAVAILABLE"
    /// A configure route needs a fresh passkey ceremony (`stepUp`).
    public static let needsStepUp: ErrorCode = "E_NEEDS_STEP_UP"
    /// The route moves energy and belongs on `cmd`.
    public static let useCommand: ErrorCode = "E_USE_CMD"
    /// The answer is not a media type the session carries.
    public static let unsupportedMedia: ErrorCode = "E_UNSUPPORTED_MEDIA"
    /// The route replaces a whole document.
    public static let wholeDocument: ErrorCode = "E_WHOLE_DOCUMENT"
    /// The route is served only on the box's own page.
    public static let localOnly: ErrorCode = "E_LOCAL_ONLY"

    /// The answer arrived cut off (client only).
    public static let responseTooLarge: ErrorCode = "E_RESPONSE_TOO_LARGE"
    /// The command was never acknowledged (client only).
    public static let noAck: ErrorCode = "E_NO_ACK"
    /// The request got no answer at all (client only).
    public static let noAnswer: ErrorCode = "E_NO_ANSWER"
    /// The answer could not be read (client only).
    public static let badBody: ErrorCode = "E_BAD_BODY"

    /// The codes the box sends, in the registry's order.
    public static let boxCodes: [ErrorCode] = [
        .booting, .unknownOp, .commandExpired, .precondition, .conflict, .scopeDenied, .grantRevoked,
        .lastOwnerProtected, .rangeTooLarge, .unavailable, .needsStepUp, .useCommand, .unsupportedMedia,
        .wholeDocument, .localOnly,
    ]

    /// The codes the client raises for itself, in the registry's order; they never cross the wire.
    public static let clientCodes: [ErrorCode] = [.responseTooLarge, .noAck, .noAnswer, .badBody]

    private static let retryable: Set<ErrorCode> = [.booting, .conflict, .unavailable, .needsStepUp, .noAck, .noAnswer]

    /// Whether asking again can succeed; an unknown code is not retryable, as the Swift client treats it.
    public var isRetryable: Bool { Self.retryable.contains(self) }
}
