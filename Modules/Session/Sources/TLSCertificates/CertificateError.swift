/// Why a certificate could not be made or read: OpenSSL refused a step, or PEM text was not what it should be.
public struct CertificateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed, in one line.
    public let message: String

    /// Makes an error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { "certificate: \(message)" }
}
