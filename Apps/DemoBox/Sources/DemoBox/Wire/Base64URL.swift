import Foundation

/// Base64url without padding (RFC 4648 §5): what every segment of the enrolment link and every device id uses.
enum Base64URL {
    /// The encoding of `bytes`.
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
