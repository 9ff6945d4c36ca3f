/// Why a certificate could not be made or read: OpenSSL refused a step, or PEM text was not what it should be.
public struct CertificateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed, in one line.
    public let message: String

    /// Makes an error.
    public init(_ message: String) { self.message = message }

    /// This build has no OpenSSL to make certificates with (Apple platforms).
    static let unavailable = CertificateError("this build has no OpenSSL to make certificates with")

    /// The message.
    public var description: String { "certificate: \(message)" }
}
