#if canImport(Glibc)
import FTWClockSeam
import FTWClockSeamTesting
import Foundation
import FTWTLSCertificates
import Testing
import FTWWebSocket

/// `wss://localhost` against servers that can never answer otherwise (``HostileTLSServer``): each dial ends at once,
/// on a clock that never moves, with a typed error a caller knows not to retry and a one-line reason.
@Suite(.timeLimit(.minutes(1)))
struct TLSHostileServerTests {
    @Test func aLeafSignedByACertificateThatIsNotACAIsNamed() async throws {
        let error = try await Self.dial(.leafSignedByNonCA)
        #expect(error.code == .tlsInvalidCertificate)
        #expect(
            error.message
                == "the TLS certificate of localhost:\(error.port) is signed by a certificate that is not a CA"
        )
    }

    @Test func aLeafForClientAuthenticationOnlyIsNamed() async throws {
        let error = try await Self.dial(.clientOnlyLeaf)
        #expect(error.code == .tlsInvalidCertificate)
        #expect(
            error.message
                == "the TLS certificate of localhost:\(error.port) is not for a TLS server: its extended key usage does"
                + " not allow server authentication"
        )
    }

    @Test func aNameOnlyInTheCommonNameIsNotMatched() async throws {
        let error = try await Self.dial(.commonNameOnly)
        #expect(error.code == .tlsWrongHost)
        #expect(
            error.message
                == "the TLS certificate of localhost:\(error.port) is not valid for localhost: it has no subjectAltName,"
                + " and a name in its common name alone is not accepted"
        )
    }

    @Test func aServerOfTLS11OnlyIsNamed() async throws {
        let error = try await Self.dial(.tls11Only)
        #expect(error.code == .tlsHandshakeFailed)
        #expect(
            error.message
                == "localhost:\(error.port) speaks no TLS version this client accepts: TLS 1.2 or later is required"
        )
    }

    @Test func aServerAnnouncingAnOversizeRecordIsNamed() async throws {
        let error = try await Self.dial(.oversizeRecord)
        #expect(error.code == .tlsHandshakeFailed)
        #expect(
            error.message
                == "localhost:\(error.port) sent a TLS record longer than TLS allows: it is not a TLS server, or a broken one"
        )
    }

    /// What a dial of `wss://localhost` to a server with `fault` ends with, checked to be final (no retry helps),
    /// one line, and reached without the clock moving (so not a timeout).
    private static func dial(
        _ fault: HostileTLSServer.Fault
    ) async throws -> (code: WebSocketError.Code, message: String, port: Int) {
        let now = Int64(Date().timeIntervalSince1970)
        let validity = CertificateAuthority.Validity.around(now: now, days: 30)
        let authority = try CertificateAuthority.make(commonName: "ftw test CA", validity: validity)
        let server = try HostileTLSServer(fault, authority: authority, validity: validity)
        defer { server.stop() }
        let error = await caught { () async throws(WebSocketError) in
            try await WebSocketClient.connect(
                host: "localhost",
                port: server.port,
                path: "/",
                limits: WebSocketLimits(),
                clock: ManualClock(originMs: 0),
                tls: TLSConfiguration(additionalTrustRoots: [.pemBytes(authority.root.certificatePEM)])
            )
        }
        let failure = try #require(error, "\(fault): the dial succeeded")
        #expect(failure.isPermanentTLSFailure, "\(failure)")
        #expect(!failure.message.contains("\n"))
        #expect(server.dials == 1)
        return (failure.code, failure.message, server.port)
    }
}
#endif
